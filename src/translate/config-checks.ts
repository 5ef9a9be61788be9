import type { TranslateInput } from "../config/translate";

/** What the checks read of [translate]: none of the durations and sizes, so that the loaded config is checked too. */
type Checked = Omit<TranslateInput, "maintenance_retry_after" | "max_body" | "simulator" | "rate_limit"> & {
  simulator: Pick<TranslateInput["simulator"], "enabled" | "name">;
};
import { type FaultRuleValue, faultTimings } from "../config/faults";
import type { Problem } from "../config/problems";
import { LANGUAGE_CODES } from "./languages";
import { wholeCents, wholeRateUnits } from "./money";

/**
 * The translation service's part of the loader's checks (config/checks.ts), run by createTranslate
 * too. Checks what the schema cannot: unique ids, names and keys, known languages, whole cents and rate units.
 */
export function translateProblems(c: Checked): Problem[] {
  const problems: Problem[] = [];
  const at = (path: string, message: string) => problems.push({ path: `translate.${path}`, message });
  const keys = new Set<string>();
  const key = (path: string, value: string | undefined) => {
    if (value === undefined) return;
    if (keys.has(value)) at(path, "this API key is already used by another account, translator or admin");
    keys.add(value);
  };
  const ids = new Set<number>();
  c.accounts.forEach((a, i) => {
    if (ids.has(a.id)) at(`accounts[${i}].id`, `duplicate account id ${a.id}`);
    ids.add(a.id);
    if (!wholeCents(a.balance)) at(`accounts[${i}].balance`, "use whole cents");
    a.api_keys.forEach((k, j) => {
      key(`accounts[${i}].api_keys[${j}]`, k);
    });
    key(`accounts[${i}].api_key`, a.api_key);
  });
  const names = new Set<string>();
  c.translators.forEach((tr, i) => {
    if (names.has(tr.name)) at(`translators[${i}].name`, `duplicate translator "${tr.name}"`);
    names.add(tr.name);
    if (tr.api_key === undefined) at(`translators[${i}]`, "give api_key or api_key_env");
    key(`translators[${i}].api_key`, tr.api_key);
  });
  if (c.simulator.enabled && names.has(c.simulator.name)) at("simulator.name", `a translator is already named "${c.simulator.name}"`);
  c.admins.forEach((ad, i) => {
    if (ad.api_key === undefined) at(`admins[${i}]`, "give api_key or api_key_env");
    key(`admins[${i}].api_key`, ad.api_key);
  });
  const RATE_DECIMALS = "use at most four decimals (rates are kept in 1/10000 dollar)";
  if (!wholeRateUnits(c.rates.default)) at("rates.default", RATE_DECIMALS);
  const pairs = new Set<string>();
  c.rates.pairs.forEach((p, i) => {
    if (!wholeRateUnits(p.rate)) at(`rates.pairs[${i}].rate`, RATE_DECIMALS);
    if (!LANGUAGE_CODES.has(p.source)) at(`rates.pairs[${i}].source`, `unknown language "${p.source}"`);
    if (!LANGUAGE_CODES.has(p.target)) at(`rates.pairs[${i}].target`, `unknown language "${p.target}"`);
    if (p.source === p.target) at(`rates.pairs[${i}]`, "source and target are the same language");
    if (pairs.has(`${p.source}>${p.target}`)) at(`rates.pairs[${i}]`, "duplicate pair");
    pairs.add(`${p.source}>${p.target}`);
  });
  problems.push(...faultProblems(c.faults, "translate.faults"));
  return problems;
}

/** Longest added latency. */
export const MAX_LATENCY_MS = 60_000;

/** What the schema of [[translate.faults]] and PUT /admin/v1/faults cannot say; paths relative to `at`. */
export function faultProblems(rules: readonly FaultRuleValue[], at: string): { path: string; message: string }[] {
  const problems: { path: string; message: string }[] = [];
  rules.forEach((r, i) => {
    const here = `${at}[${i}]`;
    if (r.error === undefined && r.latency === undefined) problems.push({ path: here, message: "give error, latency or both" });
    if (r.count !== undefined && r.rate !== undefined) problems.push({ path: here, message: "give count or rate, not both" });
    if (r.seed !== undefined && r.rate === undefined) problems.push({ path: `${here}.seed`, message: "a seed needs a rate" });
    if (r.retry_after !== undefined && r.error !== 429 && r.error !== 503)
      problems.push({ path: `${here}.retry_after`, message: "only a 429 or 503 has a Retry-After" });
    const { latencyMs, retryAfterMs } = faultTimings(r);
    if (r.latency !== undefined && latencyMs > MAX_LATENCY_MS) problems.push({ path: `${here}.latency`, message: "must be at most 60s" });
    // A Retry-After is whole seconds; a day is longer than any client waits.
    if (retryAfterMs !== undefined && !(retryAfterMs <= 86_400_000)) problems.push({ path: `${here}.retry_after`, message: "must be at most 1d" });
  });
  return problems;
}
