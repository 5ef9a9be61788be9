import { Type as t, type StaticDecode } from "@sinclair/typebox";
import type { TObject } from "@sinclair/typebox";
import type { HookMatcher } from "./checks";
import { forwardTargetProblems, type TargetProblem } from "./forward-target";
import { Chaos, parseRange, RANGE_FORM, Resign } from "./delivery";
import { parseDuration } from "../lib/units";
import { Duration, Name, RateValue } from "./values";

/**
 * Schema of a [[handlers]] entry for each handler kind. Each includes `name` and `kind` and
 * refuses unknown keys; the loader picks the schema by `kind`.
 *
 * Secrets may come from the environment through the loader's generic `<key>_env`, also inside
 * `headers` and `env` tables (`authorization_env = "APP_TOKEN"`); the runner never sends or
 * passes on the `*_env` keys themselves.
 */
const strict = { additionalProperties: false } as const;
const StringTable = (description: string) => t.Record(t.String(), t.String(), { default: {}, description });

const Backoff = t.Object(
  {
    initial: Duration("1s", "delay before the second attempt"),
    max: Duration("10m", "longest delay between two attempts"),
  },
  { ...strict, default: {}, description: "exponential backoff with jitter, doubling from initial up to max" },
);

/**
 * The circuit breaker (delivery/breaker.ts): off unless the handler has this table. After
 * `failures` attempts in a row failed, the handler's attempts wait `cool_down`, then one goes
 * through: its success closes the breaker, its failure opens it again.
 */
export const Breaker = t.Object(
  {
    failures: t.Integer({ minimum: 1, maximum: 1000, default: 5, description: "attempts failed in a row that open the breaker" }),
    cool_down: Duration("30s", "how long the handler's attempts wait once the breaker opened, before one goes through"),
  },
  { ...strict, description: "pause the handler after attempts failed in a row (off unless set)" },
);

/** Keys every handler kind has. */
const common = <K extends string>(kind: K, timeout: string) => ({
  name: Name("handler name, listed by channels in handlers = [...]"),
  kind: t.Literal(kind, { description: "handler kind" }),
  max_attempts: t.Integer({
    minimum: 1,
    maximum: 1000,
    default: 5,
    description: "attempts before the handler gives up and the hook is failed; RetryHook grants as many again",
  }),
  backoff: Backoff,
  concurrency: t.Integer({ minimum: 1, maximum: 1000, default: 4, description: "attempts of this handler running at once" }),
  timeout: Duration(timeout, "an attempt still running after this long fails"),
  when: t.Optional(
    t.String({
      minLength: 1,
      description: 'the hooks this handler runs on, a search query ("type:invoice.* payload.livemode:false"); every hook when absent',
    }),
  ),
  breaker: t.Optional(Breaker),
});

const Forward = t.Object(
  {
    ...common("forward", "10s"),
    url: t.String({
      pattern: "^https?://",
      description: "where to send the hook, with its original method, body and headers",
      problem: "must be an http:// or https:// URL",
    }),
    url_env: t.Optional(t.String({ description: "environment variable holding the url" })),
    headers: StringTable("headers added to (or replacing) the hook's own headers"),
    rate: t.Optional(RateValue('attempts started per span of time, at most ("10/s", "600/m", "5/10s"); the others wait, none is dropped')),
    resign: t.Optional(Resign),
    chaos: t.Optional(Chaos),
  },
  strict,
);

const Command = t.Object(
  {
    ...common("command", "30s"),
    argv: t.Array(t.String(), { minItems: 1, description: "program and its arguments; the hook as JSON on standard input" }),
    cwd: t.Optional(t.String({ description: "working directory, relative to the config file's directory" })),
    env: StringTable("environment variables given to the program"),
    inherit_env: t.Boolean({
      default: false,
      description: "give the program Mailroom's whole environment (which may hold secrets); by default only PATH, HOME, LANG, LC_ALL, TZ and TMPDIR",
    }),
  },
  strict,
);

const Module = t.Object(
  {
    ...common("module", "30s"),
    path: t.String({
      minLength: 1,
      description: "TypeScript or JavaScript file whose default export is called with the hook; relative to the config file's directory",
    }),
  },
  strict,
);

export const HANDLER_KINDS: Record<string, TObject> = { forward: Forward, command: Command, module: Module };

/**
 * What a kind's schema cannot say, run on an entry its schema accepted; paths relative to the
 * entry. A forward's URL and headers must be ones fetch sends (config/forward-target.ts).
 */
export const HANDLER_CHECKS: Record<string, (entry: Record<string, unknown>) => TargetProblem[]> = {
  forward: (f) => [...forwardTargetProblems(f.url as string, f.headers as Record<string, string>), ...chaosProblems(f), ...durationCaps(f)],
  command: (c) => durationCaps(c),
  module: (m) => durationCaps(m),
};

/** The longest a handler's timeout, backoff or breaker cool-down may be: beyond it a date is no date (a 500 in GET /v1/handlers). */
const MAX_DURATION_MS = 366 * 24 * 3600 * 1000;

/** Durations past MAX_DURATION_MS (a year), each named: "300000000d" is a typo, not a cool-down. */
function durationCaps(entry: Record<string, unknown>): TargetProblem[] {
  const backoff = entry.backoff as { initial?: unknown; max?: unknown } | undefined;
  const breaker = entry.breaker as { cool_down?: unknown } | undefined;
  const values: [string, unknown][] = [
    ["timeout", entry.timeout],
    ["backoff.initial", backoff?.initial],
    ["backoff.max", backoff?.max],
    ["breaker.cool_down", breaker?.cool_down],
  ];
  return values
    .filter(([, v]) => typeof v === "string" && (parseDuration(v) ?? 0) > MAX_DURATION_MS)
    .map(([path]) => ({ path, message: "must be at most a year (366d)" }));
}

/** A chaos that drops every attempt would fail every hook: drop_first must leave one attempt at least. */
function chaosProblems(f: Record<string, unknown>): TargetProblem[] {
  const chaos = f.chaos as { drop_first?: unknown; delay?: unknown } | undefined;
  const out: TargetProblem[] = [];
  // The schema checks the delay's form; a range whose low end is above its high end is no range (it used to load as 0-0).
  if (typeof chaos?.delay === "string" && RANGE_FORM.test(chaos.delay) && parseRange(chaos.delay) === undefined)
    out.push({ path: "chaos.delay", message: `the low end is above the high end in "${chaos.delay}": write it as "1s-5s"` });
  const drop = chaos?.drop_first;
  const max = f.max_attempts as number;
  if (typeof drop === "number" && drop >= max)
    out.push({ path: "chaos.drop_first", message: `must be less than max_attempts (${max}): every attempt would be dropped and every hook fail` });
  return out;
}

/** A handler entry as the loader converts it: durations in milliseconds, `when` compiled (config/checks.ts WhenChecks). */
type Loaded<T> = Omit<T, "when"> & { when?: HookMatcher };
export type ForwardConfig = Loaded<StaticDecode<typeof Forward>>;
export type CommandConfig = Loaded<StaticDecode<typeof Command>>;
export type ModuleConfig = Loaded<StaticDecode<typeof Module>>;
export type HandlerConfig = ForwardConfig | CommandConfig | ModuleConfig;
