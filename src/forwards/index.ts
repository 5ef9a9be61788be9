import { Value } from "@sinclair/typebox/value";
import { Chaos } from "../config/delivery";
import type { WhenChecks } from "../config/checks";
import { Breaker, HANDLER_CHECKS, HANDLER_KINDS, type ForwardConfig } from "../config/handlers";
import { checkKinded, decodeKinded } from "../config/load";
import { printable } from "../config/printable";
import type { Config } from "../config/schema";
import { parseRate } from "../config/values";
import type { Clock } from "../lib/clock";
import { outboundProblem } from "../config/forward-target";
import { AppError, invalid, notFound, precondition } from "../lib/errors";
import type { Runner } from "../runner";
import type { ForwardRow, ForwardStore } from "./store";

export type ForwardInfo = {
  name: string;
  channel: string;
  url: string;
  headers: Record<string, string>;
  max_attempts: number;
  backoff: { initial: string; max: string };
  timeout: string;
  /** The `chaos` table as written (the dashboard's chaos toggle), null when off. */
  chaos: Record<string, unknown> | null;
  /** The `when` query as written, null when the handler runs on every hook. */
  when: string | null;
  /** The `rate` as written ("10/s"), null when not paced. */
  rate: string | null;
  /** The `breaker` table as written, null when off. */
  breaker: { failures: number; cool_down: string } | null;
};

type Row = ForwardRow;

/** The stored chaos table, converted as the config loader converts it (durations in ms). */
const chaosOf = (r: Row) => (r.chaos === null ? {} : { chaos: Value.Decode(Chaos, JSON.parse(r.chaos)) });

/** The stored `when`, `rate` and `breaker`, converted as the config loader converts a handler's (the query compiled, the rest by their schemas). */
const controlsOf = (r: Row, when: WhenChecks) => ({
  ...(r.when ? { when: when.compile(r.when) } : {}),
  ...(r.rate === null ? {} : { rate: parseRate(r.rate)! }),
  ...(r.breaker === null ? {} : { breaker: Value.Decode(Breaker, JSON.parse(r.breaker)) }),
});

const toConfig = (r: Row, when: WhenChecks): ForwardConfig => ({
  ...chaosOf(r),
  ...controlsOf(r, when),
  name: r.name,
  kind: "forward",
  url: r.url,
  headers: JSON.parse(r.headers),
  max_attempts: r.maxAttempts,
  concurrency: 4,
  backoff: { initial: r.backoffInitialMs, max: r.backoffMaxMs },
  timeout: r.timeoutMs,
});
/** What the API shows: the durations written back as milliseconds ("1000ms"), as they were stored. */
const toInfo = (r: Row): ForwardInfo => ({
  name: r.name,
  url: r.url,
  headers: JSON.parse(r.headers),
  max_attempts: r.maxAttempts,
  backoff: { initial: `${r.backoffInitialMs}ms`, max: `${r.backoffMaxMs}ms` },
  timeout: `${r.timeoutMs}ms`,
  channel: r.channel,
  chaos: r.chaos === null ? null : JSON.parse(r.chaos),
  when: r.when || null,
  rate: r.rate,
  breaker: r.breaker === null ? null : JSON.parse(r.breaker),
});

/**
 * Forward handlers added to a channel in the dashboard (URL, headers, retry policy), stored and
 * handed to the runner at start-up and on every change. Only the forward kind: a dashboard user
 * must never make the host run a program, so command and module handlers stay in the config file.
 * The stored ones reach the runner in `load()`, which start-up awaits. `when` is the check and
 * compiler of a handler's `when` the config loader uses (src/load-config.ts registers it), so a
 * forward added here routes, is paced and trips its breaker exactly as a config file's does.
 */
export function createForwards(deps: { config: Config; store: ForwardStore; clock: Clock; runner: Runner; when: WhenChecks }) {
  const { config, store, clock, runner, when } = deps;
  const configured = new Set(config.handlers.map((h) => h.name));
  /** The stored forwards handed to the runner, name -> channel. */
  let loaded = new Map<string, string>();

  return {
    /**
     * Hands the stored forwards to the runner (at start-up, and again when another instance changed
     * them: those deleted meanwhile are taken off). Rejects with the database's error.
     */
    async load(): Promise<void> {
      const rows = (await store.list()).filter((r) => !configured.has(r.name));
      const now = new Map(rows.map((r) => [r.name, r.channel]));
      for (const [name, channel] of loaded) if (now.get(name) !== channel) runner.removeForward(channel, name);
      for (const row of rows) await runner.addForward(row.channel, toConfig(row, when));
      loaded = now;
    },
    list: async (channel?: string): Promise<ForwardInfo[]> => (await store.list()).filter((r) => !channel || r.channel === channel).map(toInfo),
    /**
     * Throws invalid_argument for another kind or bad settings, permission_denied for a link-local
     * target (config/forward-target.ts) unless `[server] allow_link_local`, failed_precondition for a name taken.
     */
    async add(channel: string, entry: Record<string, unknown>): Promise<ForwardInfo> {
      if (entry.kind !== undefined && entry.kind !== "forward") {
        throw invalid(`kind: only forward handlers can be added in the dashboard; ${String(entry.kind)} handlers are set in the config file`);
      }
      for (const key of Object.keys(entry)) if (key.endsWith("_env")) throw invalid(`${key}: environment variables are for the config file only`);
      // Its secret would be stored in the database: re-signing is set in the config file (or per send).
      if (entry.resign !== undefined) throw invalid("resign: re-signing is set in the config file, where its secret can come from the environment");
      const forward = { ...entry, kind: "forward" } as Record<string, unknown>;
      const problems = checkKinded([forward], HANDLER_KINDS, "handler", HANDLER_CHECKS);
      // A `when` its schema accepted but that does not parse, saying where, as check-config says it.
      const query = typeof forward.when === "string" && !problems.some((p) => p.path === "handler[0].when") ? when.problem(forward.when) : undefined;
      if (query) problems.push({ path: "handler[0].when", message: query });
      // Every problem, each as "<key>: <what is wrong>" (the entry's own problems without a key).
      const said = problems.map((p) => printable([p.path.replace(/^handler\[0\]\.?/, ""), p.message].filter(Boolean).join(": ")));
      if (problems.length > 0) throw invalid(said.join("; "));
      const f = decodeKinded(HANDLER_KINDS, forward) as ForwardConfig;
      const forbidden = await outboundProblem(f.url, { allowLinkLocal: config.server.allow_link_local });
      if (forbidden) throw new AppError("permission_denied", `url: ${forbidden}`);
      const taken = () => precondition(`handler "${f.name}" exists already`);
      if (configured.has(f.name) || (await store.get(f.name))) throw taken();
      const row: Row = {
        name: f.name,
        channel,
        url: f.url,
        headers: JSON.stringify(f.headers),
        maxAttempts: f.max_attempts,
        backoffInitialMs: f.backoff.initial,
        backoffMaxMs: f.backoff.max,
        timeoutMs: f.timeout,
        createdAt: clock.now(),
        chaos: entry.chaos === undefined ? null : JSON.stringify(entry.chaos),
        when: (forward.when as string | undefined) ?? "",
        rate: (forward.rate as string | undefined) ?? null,
        // As written, with the defaults the schema filled in.
        breaker: forward.breaker === undefined ? null : JSON.stringify(forward.breaker),
      };
      if (!(await store.insert(row))) throw taken();
      await runner.addForward(channel, toConfig(row, when));
      loaded.set(row.name, channel);
      return toInfo(row);
    },
    /** Throws not_found unless the channel has a stored forward of this name. */
    async remove(channel: string, name: string): Promise<void> {
      const row = await store.get(name);
      const missing = () => notFound(`handler "${name}" of channel "${channel}" not found`);
      if (!row || row.channel !== channel) throw missing();
      if (!(await store.remove(name))) throw missing();
      await runner.removeForward(channel, name);
      loaded.delete(name);
    },
  };
}

export type Forwards = ReturnType<typeof createForwards>;
