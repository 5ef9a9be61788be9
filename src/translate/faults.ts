import { type FaultRuleValue, faultTimings } from "../config/faults";
import { faultProblems } from "./config-checks";
import type { TranslateConfig } from "../config/translate";
import { invalid } from "../lib/errors";
import { translateError } from "./errors";

/**
 * Faults of the translation API (revisions A and B), for testing a client's retries: added
 * latency, and 429 (with Retry-After), 500 or 503 in the API's own error body, by rate or for the
 * next N requests, per revision and route. They run after the gate (a bad key is still a 401) and
 * before the route: a faulted request changes nothing, money least of all.
 *
 * Rules are checked in order; each matching rule that fires adds its latency, and the first one
 * with an error answers it (later rules are not consulted, so their counts are kept). A rule with a
 * `seed` draws from its own generator: the same seed faults the same requests, run after run.
 * The config's rules apply at start; PUT /admin/v1/faults replaces them until the next start.
 */
export type FaultView = FaultRuleValue & { remaining?: number; fired: number };

type Rule = {
  rule: FaultRuleValue;
  method?: string;
  path?: RegExp;
  latencyMs: number;
  retryAfterMs: number | undefined;
  remaining?: number;
  draw?: () => number;
  fired: number;
};

const ROOT = { A: "/v1", B: "/api/v1" } as const;
const TEXT = {
  429: ["rate_limited", "too many requests; slow down"],
  500: ["internal", "internal error; try again later"],
  503: ["unavailable", "the service is down for maintenance; try again later"],
} as const;

/** Mulberry32: a small seeded generator of numbers in [0, 1). */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = Math.imul(a ^ (a >>> 15), 1 | a);
    x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

function compile(rule: FaultRuleValue, random: () => number): Rule {
  let method: string | undefined;
  let path: RegExp | undefined;
  if (rule.route !== undefined) {
    const space = rule.route.indexOf(" ");
    method = space < 0 ? undefined : rule.route.slice(0, space);
    const pattern = space < 0 ? rule.route : rule.route.slice(space + 1);
    const source = pattern
      .split(/(\{[^}/]*\}|:[A-Za-z0-9_]+|\*)/)
      .map((part) => (part === "*" ? ".*" : /^(\{.*\}|:.+)$/.test(part) ? "[^/]+" : part.replace(/[.]/g, "\\.")))
      .join("");
    path = new RegExp(`^${source}$`);
  }
  return {
    rule,
    method,
    path,
    ...faultTimings(rule),
    remaining: rule.count,
    draw: rule.rate === undefined ? undefined : rule.seed === undefined ? random : seeded(rule.seed),
    fired: 0,
  };
}

export function createFaults(deps: { config: TranslateConfig; random?: () => number; sleep?: (ms: number) => Promise<void> }) {
  const random = deps.random ?? Math.random;
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  let rules = deps.config.faults.map((r) => compile(r, random));

  /** Which rules fire for this request: the latency to add and the error to answer, if any. */
  function decide(method: string, revision: "A" | "B", path: string): { latencyMs: number; error?: Rule } {
    let latencyMs = 0;
    if (rules.length === 0) return { latencyMs };
    const sub = path.slice(ROOT[revision].length) || "/";
    for (const r of rules) {
      if (r.rule.revision !== undefined && r.rule.revision !== revision) continue;
      if (r.method !== undefined && r.method !== method && !(r.method === "GET" && method === "HEAD")) continue;
      if (r.path && !r.path.test(sub)) continue;
      if (r.remaining !== undefined) {
        if (r.remaining === 0) continue;
        r.remaining--;
      } else if (r.draw && !(r.draw() < r.rule.rate!)) continue;
      r.fired++;
      latencyMs += r.latencyMs;
      if (r.rule.error !== undefined) return { latencyMs, error: r };
    }
    return { latencyMs };
  }

  function view(): { faults: FaultView[] } {
    return {
      faults: rules.map((r) => ({ ...r.rule, ...(r.remaining === undefined ? {} : { remaining: r.remaining }), fired: r.fired })),
    };
  }

  return {
    /**
     * Before a revision A or B route: resolves after the latency, or throws the error the rules
     * decide. Returns undefined at once (no promise) when nothing applies, the usual case.
     */
    apply(method: string, revision: "A" | "B", path: string): Promise<void> | undefined {
      const { latencyMs, error } = decide(method, revision, path);
      if (latencyMs === 0 && !error) return undefined;
      return (latencyMs > 0 ? sleep(latencyMs) : Promise.resolve()).then(() => {
        if (!error) return;
        const status = error.rule.error!;
        const headers: Record<string, string> = {};
        if (status !== 500) headers["retry-after"] = String(Math.ceil((error.retryAfterMs ?? 1000) / 1000));
        throw translateError(TEXT[status][0], TEXT[status][1], headers);
      });
    },
    view,
    /** Replaces every rule; throws invalid_argument (INVALID_REQUEST) naming the bad field. */
    replace(next: FaultRuleValue[]): { faults: FaultView[] } {
      // Fields named as the API's validation names them (faults.0.rate), not as the config loader does.
      const problems = faultProblems(next, "faults").map((p) => ({ ...p, path: p.path.replace(/\[(\d+)\]/g, ".$1") }));
      if (problems.length > 0) {
        const first = problems[0]!;
        throw invalid(`invalid body: ${problems.map((p) => `${p.path}: ${p.message}`).join("; ")}`, {
          code: "INVALID_REQUEST",
          parameters: { field: first.path, reason: first.message },
        });
      }
      rules = next.map((r) => compile(r, random));
      return view();
    },
  };
}

export type Faults = ReturnType<typeof createFaults>;
