import type { TranslateConfig } from "../config/translate";
import { LANGUAGE_CODES } from "./languages";
import { rateDollars, rateUnits } from "./money";
import { bad } from "./errors";

export type Rate = { source_language: string; target_language: string; rate: number };

/**
 * Per-pair rates: the configured pairs, and the default for any other pair of two different
 * supported languages unless `pairs_only`.
 */
export function createRates(c: TranslateConfig["rates"]) {
  const pairs = new Map(c.pairs.map((p) => [`${p.source}>${p.target}`, rateUnits(p.rate)]));
  const fallback = c.pairs_only ? undefined : rateUnits(c.default);
  const codes = [...LANGUAGE_CODES];

  /** Rate units for the pair, or undefined when it has none. */
  function units(source: string, target: string): number | undefined {
    if (source === target || !LANGUAGE_CODES.has(source) || !LANGUAGE_CODES.has(target)) return undefined;
    return pairs.get(`${source}>${target}`) ?? fallback;
  }

  const all: Rate[] = [];
  for (const s of codes)
    for (const t of codes) {
      const u = units(s, t);
      if (u !== undefined) all.push({ source_language: s, target_language: t, rate: rateDollars(u) });
    }

  return {
    units,
    /** Throws LANGUAGE_NOT_FOUND for an unknown code or a pair without a rate. */
    require(source: string, target: string): number {
      for (const [field, code] of [
        ["source_language", source],
        ["target_language", target],
      ] as const) {
        if (!LANGUAGE_CODES.has(code)) throw bad("LANGUAGE_NOT_FOUND", `${field}: "${code}" is not a supported language code`, { language: code });
      }
      const found = units(source, target);
      if (found === undefined) {
        throw bad("LANGUAGE_NOT_FOUND", `no rate for ${source} -> ${target}`, { source_language: source, target_language: target });
      }
      return found;
    },
    /** Every pair with a rate, by source then target in the spec's language order. */
    list: (): Rate[] => all,
  };
}

export type Rates = ReturnType<typeof createRates>;
