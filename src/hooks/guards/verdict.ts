import { createHmac } from "node:crypto";
import { constantTimeEqual } from "../../lib/secrets";
import type { GuardVerdict } from "./types";

/** Small pieces every guard kind shares: verdicts, HMAC, constant-time matching, timestamps. */

export const PASS: GuardVerdict = { ok: true };

export function refuse(status: 401 | 403 | 405 | 413 | 415, reason: string, headers?: Record<string, string>): GuardVerdict {
  return headers ? { ok: false, status, reason, headers } : { ok: false, status, reason };
}

export const unauthenticated = (reason: string) => refuse(401, reason);

import { GuardConfigError } from "./config-error";

export { GuardConfigError };

/** Throws GuardConfigError when neither `<key>` nor `<key>_env` was given. */
export function requireSecret(value: string | undefined, key = "secret"): string {
  if (value === undefined || value === "") throw new GuardConfigError(key, `give ${key} or ${key}_env`);
  return value;
}

export type Algorithm = "sha1" | "sha256" | "sha512";

/**
 * HMAC of the parts one after the other: strings as UTF-8, bytes as they are (the body is never
 * decoded, so a signature over bytes that are not UTF-8 still matches).
 *
 * @example hmac("sha256", "key", ["v0:", ts, ":", body]).toString("hex")
 */
export function hmac(algorithm: Algorithm, key: string | Uint8Array, parts: readonly (string | Uint8Array)[]): Buffer {
  const mac = createHmac(algorithm, key);
  for (const part of parts) mac.update(part);
  return mac.digest();
}

/**
 * True when one of the presented signatures equals the expected one. Every candidate is compared
 * in constant time and none is skipped, so the time says nothing about which one was close.
 */
export function matchesAny(expected: string, presented: readonly string[]): boolean {
  let found = false;
  for (const candidate of presented) found = constantTimeEqual(expected, candidate) || found;
  return found;
}

/**
 * Checks a Unix timestamp in seconds against the clock. Returns the reason for a refusal, or
 * undefined when it is within `toleranceMs` either way (a tolerance of 0 turns the check off).
 */
export function timestampProblem(text: string, nowMs: number, toleranceMs: number): string | undefined {
  if (!/^\d{1,12}$/.test(text)) return "timestamp is not a Unix time in seconds";
  if (toleranceMs === 0) return undefined;
  const skew = Math.abs(nowMs - Number(text) * 1000);
  if (skew <= toleranceMs) return undefined;
  return `timestamp is ${Math.round(skew / 1000)}s away from now, beyond the tolerance of ${toleranceMs / 1000}s`;
}

/** A header's value, or undefined when it was not sent (an empty value counts as not sent). */
export function header(headers: Headers, name: string): string | undefined {
  const value = headers.get(name)?.trim();
  return value ? value : undefined;
}
