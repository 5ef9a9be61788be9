import type { PresetGuardConfig } from "./kinds";
import type { SchemeGuardConfig } from "./scheme-kind";
import { createHandshake } from "../handshakes";
import type { Preset } from "./providers";
import { compileScheme, type SchemeDeps, type SchemeKeys } from "./scheme/engine";
import { isAsymmetric } from "./scheme/keys";
import type { Scheme } from "./scheme/types";
import type { Guard } from "./types";
import { GuardConfigError, refuse } from "./verdict";

/** True when the body is one JSON object (not an array, a string, a number, true, false or null). */
function isJsonObject(body: Uint8Array): boolean {
  let i = 0;
  while (i < body.length && (body[i] === 0x20 || body[i] === 0x09 || body[i] === 0x0a || body[i] === 0x0d)) i++;
  if (body[i] !== 0x7b) return false; // "{": the cheap refusal of everything a CRC token can be
  try {
    const v: unknown = JSON.parse(Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString("utf8"));
    return v !== null && typeof v === "object" && !Array.isArray(v);
  } catch {
    return false;
  }
}

/**
 * Refuses a body that is not a JSON object before the signature is checked: a provider whose
 * handshake signs a token of the sender's choosing (X's CRC) would otherwise have signed, for
 * anyone, a body such as `true` or `12345`.
 */
function jsonObjectsOnly(guard: Guard, title: string): Guard {
  const reason = `the body is not a JSON object: ${title} sends only JSON objects (a CRC answer is not a signature of a body)`;
  return { ...guard, check: (input) => (isJsonObject(input.body) ? guard.check(input) : refuse(415, reason)) };
}

function keysOf(scheme: Scheme, config: { secret?: string; public_key?: string }) {
  if (isAsymmetric(scheme)) {
    if (!config.public_key) throw new GuardConfigError("public_key", "give public_key or public_key_env");
    return { publicKey: config.public_key };
  }
  if (!config.secret) throw new GuardConfigError("secret", "give secret or secret_env");
  return { secret: config.secret };
}

/** The tolerance of an entry that reached a factory without its kind's defaults (the schemas give one whenever a timestamp is signed). */
const DEFAULT_TOLERANCE_MS = 300_000;

/** A guard by one scheme; throws GuardConfigError for a key or template that cannot work. */
function schemeGuard(
  name: string,
  kind: string,
  scheme: Scheme,
  config: { secret?: string; public_key?: string; tolerance?: number },
  deps: SchemeDeps,
): Guard {
  const check = compileScheme(scheme, keysOf(scheme, config), config.tolerance ?? DEFAULT_TOLERANCE_MS, deps);
  // A shared token sent as it is must not be stored readable.
  const token = scheme.algorithm === "token" && scheme.header ? [scheme.header.toLowerCase()] : undefined;
  const tokenQuery = scheme.algorithm === "token" && scheme.query !== undefined ? [scheme.query] : undefined;
  const signing: Signing = { scheme, keys: keysOf(scheme, config), toleranceMs: config.tolerance ?? DEFAULT_TOLERANCE_MS, deps };
  const guard: Guard & { [SIGNING]: Signing } = { name, kind, authenticates: true, check, [SIGNING]: signing };
  const signature = scheme.algorithm !== "token" && scheme.header ? [scheme.header.toLowerCase()] : undefined;
  return {
    ...guard,
    ...(token ? { secretHeaders: token } : {}),
    ...(tokenQuery ? { secretQuery: tokenQuery } : {}),
    ...(signature ? { signatureHeaders: signature } : {}),
  };
}

/**
 * What a scheme guard verifies with, under a symbol (spreads keep it; JSON and logs never show it):
 * diagnose/ feeds a refused request's variants through the same scheme's check (compileScheme).
 */
export const SIGNING = Symbol("signing");
export type Signing = { scheme: Scheme; keys: SchemeKeys; toleranceMs: number; deps: SchemeDeps };

/** The signing of a scheme guard (a preset or kind = "scheme"), else undefined. */
export function signingOf(guard: Guard): Signing | undefined {
  return (guard as Guard & { [SIGNING]?: Signing })[SIGNING];
}

/** `kind = "<provider>"`: a named provider's scheme with the entry's secret or public key. */
export function createPresetGuard(preset: Preset, config: PresetGuardConfig, deps: SchemeDeps): Guard {
  const signed = schemeGuard(config.name, preset.kind, preset.scheme, config, deps);
  const guard = preset.jsonObjectBody ? jsonObjectsOnly(signed, preset.title) : signed;
  const verifyToken = typeof config.verify_token === "string" ? config.verify_token : undefined;
  return {
    ...guard,
    ...(preset.eventType ? { eventType: preset.eventType } : {}),
    ...(preset.handshake ? { handshake: createHandshake(preset.handshake, { secret: config.secret, verifyToken }) } : {}),
  };
}

/** `kind = "scheme"`: a scheme written in TOML. Throws GuardConfigError naming the key at fault. */
export function createSchemeGuard(config: SchemeGuardConfig, deps: SchemeDeps): Guard {
  const places = [config.header, config.field, config.query].filter((v) => v !== undefined).length;
  if (places !== 1) throw new GuardConfigError("header", "give exactly one of header, field, query (where the signature is)");
  const stamps = [config.timestamp_header, config.timestamp_key, config.timestamp_field].filter((v) => v !== undefined).length;
  if (stamps > 1) throw new GuardConfigError("timestamp_header", "give at most one of timestamp_header, timestamp_key, timestamp_field");
  if (config.signed.includes("{timestamp}") && stamps === 0)
    throw new GuardConfigError("signed", "{timestamp} needs timestamp_header, timestamp_key or timestamp_field");
  if (config.algorithm !== "token" && !config.signed.includes("{body}") && !config.signed.includes("{form}")) {
    throw new GuardConfigError("signed", "must contain {body} or {form}: a signature that does not cover the body proves nothing about it");
  }
  if (config.timestamp_key !== undefined && config.key === undefined) throw new GuardConfigError("timestamp_key", "needs key (a key-value signature header)");
  const scheme: Scheme = {
    algorithm: config.algorithm as Scheme["algorithm"],
    signed: config.algorithm === "token" ? "" : config.signed,
    encoding: config.encoding as Scheme["encoding"],
    publicKey: config.public_key_format as Scheme["publicKey"],
    secret: { encoding: config.secret_encoding as "utf8" | "base64" | "hex", ...(config.secret_prefix ? { strip: config.secret_prefix } : {}) },
    ...(config.header !== undefined ? { header: config.header } : {}),
    ...(config.field !== undefined ? { field: config.field } : {}),
    ...(config.query !== undefined ? { query: config.query } : {}),
    ...(config.key !== undefined ? { key: config.key } : {}),
    ...(config.pairs !== undefined ? { pairs: config.pairs } : {}),
    ...(config.separator !== undefined ? { separator: config.separator } : {}),
    ...(config.prefix !== undefined ? { prefix: config.prefix } : {}),
    ...(config.algorithm === "token" ? { what: "token" } : {}),
    ...(stamps === 1
      ? {
          timestamp: {
            format: config.timestamp_format as "unix" | "unix-ms" | "rfc3339",
            ...(config.timestamp_header ? { header: config.timestamp_header } : {}),
            ...(config.timestamp_key ? { key: config.timestamp_key } : {}),
            ...(config.timestamp_field ? { field: config.timestamp_field } : {}),
          },
        }
      : {}),
  };
  const guard = schemeGuard(config.name, config.kind, scheme, config, deps);
  const header = config.event_type_header?.toLowerCase();
  const field = config.event_type_field;
  if (!header && !field) return guard;
  return { ...guard, eventType: { ...(header ? { header } : {}), ...(field ? { body: [field] } : {}) } };
}
