import { Type as t } from "@sinclair/typebox";
import { parseDuration } from "../lib/units";
import { DurationValue } from "./values";

/**
 * What a forward does to what it sends (delivery/): `resign` on a forward handler or a channel,
 * `chaos` on a forward handler. Which provider kinds can be re-signed is the guards' business:
 * the composition registers that check (config/checks.ts `resign`).
 */
const strict = { additionalProperties: false } as const;

export const Resign = t.Object(
  {
    kind: t.String({ minLength: 1, description: "the provider whose signature is made (mailroom providers lists them)" }),
    secret: t.Optional(t.String({ minLength: 1, description: "the shared secret (HMAC and token schemes)" })),
    secret_env: t.Optional(t.String({ description: "environment variable holding the secret" })),
    private_key: t.Optional(t.String({ minLength: 1, description: "the private key, PEM (Ed25519, ECDSA and RSA schemes)" })),
    private_key_env: t.Optional(t.String({ description: "environment variable holding the private key" })),
  },
  { ...strict, description: "sign what is sent as this provider does, with a fresh timestamp and delivery ids" },
);

export const RANGE_FORM = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*-\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)\s*$/;

/** "0-500ms", "1s-2s": [min, max] in milliseconds, or undefined. A bound without a unit takes the other's. */
export function parseRange(text: string): { min: number; max: number } | undefined {
  const m = RANGE_FORM.exec(text);
  if (!m) return undefined;
  const min = parseDuration(`${m[1]}${m[2] ?? m[4]}`)!;
  const max = parseDuration(`${m[3]}${m[4]}`)!;
  return min <= max ? { min, max } : undefined;
}

const Range = t
  .Transform(t.String({ pattern: RANGE_FORM.source, description: 'a range of durations, "0-500ms"', problem: 'must be a range such as "0-500ms" or "1s-2s"' }))
  .Decode((text) => parseRange(text) ?? { min: 0, max: 0 })
  .Encode((r) => `${r.min}-${r.max}ms`);

export const Chaos = t.Object(
  {
    duplicate: t.Optional(t.Number({ minimum: 0, maximum: 1, description: "share of hooks delivered twice, with the same delivery id" })),
    duplicate_after: t.Optional(
      DurationValue({ description: "how long after the first the duplicate comes (default: at once)", problem: 'must be a duration such as "2s"' }),
    ),
    reorder: t.Optional(DurationValue({ description: "hold hooks for this window and deliver them shuffled", problem: 'must be a duration such as "2s"' })),
    delay: t.Optional(Range),
    drop_first: t.Optional(
      t.Integer({ minimum: 0, maximum: 100, description: "the first N attempts of each hook count as timed out (the app sees the retries)" }),
    ),
    burst: t.Optional(t.Integer({ minimum: 2, maximum: 1000, description: "hold hooks until this many wait (at most 1 s) and deliver them at once" })),
    seed: t.Optional(t.Integer({ minimum: 0, maximum: 2 ** 48, description: "the same seed and the same hooks give the same actions" })),
  },
  { ...strict, description: "deliver like a provider misbehaves: twice, late, out of order" },
);

/**
 * `--chaos 'duplicate=0.2,reorder=2s,seed=42'` as the TOML table it stands for: numbers where the
 * text is one, else the text (the schema checks each). Throws Error on a pair without `=`.
 */
export function parseChaosFlag(text: string): Record<string, string | number> {
  const out: Record<string, string | number> = {};
  for (const pair of text.split(",")) {
    if (!pair.trim()) continue;
    const eq = pair.indexOf("=");
    if (eq <= 0) throw new Error(`expected NAME=VALUE pairs separated by commas, got ${pair.trim()}`);
    const value = pair.slice(eq + 1).trim();
    out[pair.slice(0, eq).trim()] = /^\d+(\.\d+)?$/.test(value) ? Number(value) : value;
  }
  return out;
}
