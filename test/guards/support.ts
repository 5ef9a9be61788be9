import { expect } from "bun:test";
import { buildConfig } from "../../src/load-config";
import { createGuards, type Guard, type GuardInput, type GuardVerdict } from "../../src/hooks/guards";
import { createFakeClock, type FakeClock } from "../helpers/clock";

/**
 * Builds one guard from its [[guards]] entry the way the app does: through the config loader
 * (schema, defaults, `_env` secrets) and createGuards, with a fake clock.
 */
export function makeGuard(entry: Record<string, unknown>, opts: { clock?: FakeClock; env?: Record<string, string> } = {}) {
  const clock = opts.clock ?? createFakeClock();
  const config = buildConfig({ guards: [{ name: "g", ...entry }] }, opts.env ?? {});
  const guard = createGuards(config.guards, { clock }).get((entry.name as string | undefined) ?? "g")!;
  return { guard, clock };
}

/** A request as the catching endpoint hands it to a guard. */
export function request(
  parts: { headers?: Record<string, string>; body?: string | Uint8Array; method?: string; query?: string; ip?: string } = {},
): GuardInput {
  return {
    method: parts.method ?? "POST",
    query: parts.query ?? "channel=c",
    headers: new Headers(parts.headers ?? {}),
    body: typeof parts.body === "string" ? new TextEncoder().encode(parts.body) : (parts.body ?? new Uint8Array()),
    ip: parts.ip ?? "127.0.0.1",
  };
}

export async function run(guard: Guard, input: GuardInput): Promise<GuardVerdict> {
  return await guard.check(input);
}

/**
 * Expects a refusal with `status` whose reason matches `reason` and reveals none of `secrets`
 * (the secret itself, the expected signature...).
 */
export async function expectRefused(guard: Guard, input: GuardInput, status: number, reason: RegExp, secrets: string[] = []) {
  const verdict = await guard.check(input);
  expect(verdict.ok).toBe(false);
  if (verdict.ok) return verdict;
  expect(verdict.status).toBe(status as any);
  expect(verdict.reason).toMatch(reason);
  for (const s of secrets) expect(verdict.reason).not.toContain(s);
  return verdict;
}

export async function expectPassed(guard: Guard, input: GuardInput) {
  expect(await guard.check(input)).toEqual({ ok: true });
}

/** A body as providers send it: JSON with a non-ASCII character, so a decode/re-encode would show. */
export const BODY = '{"id":"evt_1","text":"héllo ✓","n":1}\n';
