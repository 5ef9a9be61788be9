import { parseDuration } from "../lib/units";
import { readEvents } from "../lib/sse";
import type { ManagementClient } from "./management";
import type { HookExtended as Hook } from "./types";

/** Which hooks: a search in the search grammar (`type:push payload.ref:main`, docs/search.md), or a predicate. */
export type HookWhere = string | ((hook: Hook) => boolean);
/** Milliseconds, or a duration such as "500ms", "5s", "1m". */
export type Duration = number | string;

export type HooksQuery = {
  /** Only hooks of this channel (default: every channel). */
  channel?: string;
  where?: HookWhere;
};

export type ExpectHooks = HooksQuery & {
  /**
   * How many: a number is exactly that many, `{ atLeast: n }` n or more (default `{ atLeast: 1 }`).
   * Exactly is checked when the wait ends: once n have arrived, the proof waits until `settle`
   * (default 0: at once) for more and fails if more came.
   */
  count?: number | { atLeast: number };
  /** How long to wait for them (default 5s). */
  within?: Duration;
  /** With an exact count: how long to keep watching for one too many after the count is reached (default 0). */
  settle?: Duration;
};

export type ExpectNoHook = HooksQuery & {
  /** How long to watch (default 1s). A matching hook already stored counts too. */
  during?: Duration;
};

/** A proof that failed; the message lists what did arrive. `matched` and `arrived` hold the same as data (oldest first). */
export class HookExpectationError extends Error {
  constructor(
    message: string,
    readonly matched: Hook[],
    readonly arrived: Hook[],
  ) {
    super(message);
    this.name = "HookExpectationError";
  }
}

const MAX_HOOKS = 1000;
const PAGE = 100;
/** Searches are indexed a moment after a hook is caught: with a `where` search, the list is read again this often besides on each stream event. */
const POLL_MS = 100;
const SHOWN = 10;

function ms(d: Duration | undefined, fallback: number, what: string): number {
  if (d === undefined) return fallback;
  const n = typeof d === "number" ? d : parseDuration(d);
  if (n === undefined || !Number.isFinite(n) || n < 0)
    throw new TypeError(`${what}: must be milliseconds or a duration such as "5s", got ${JSON.stringify(d)}`);
  return n;
}

/** The hooks of `q` in catch order (oldest first), at most 1000; `where` filters (a search is run by the server). */
export async function listHooks(api: ManagementClient, q: HooksQuery): Promise<Hook[]> {
  const out: Hook[] = [];
  let after: string | undefined;
  const search = typeof q.where === "string" ? q.where : undefined;
  for (;;) {
    const page = await api.hooks.list({ channel: q.channel, q: search, limit: PAGE, after, include: "extensions" });
    out.push(...page);
    if (page.length < PAGE || out.length >= MAX_HOOKS) break;
    after = page.at(-1)!.id;
  }
  const matches = typeof q.where === "function" ? out.filter(q.where) : out;
  // Ids are ULIDs of the catch time: sorted, they are in catch order.
  return matches.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/**
 * Reads the hooks of `q` until `done` says so or `ms` pass: again on each event of the live stream
 * (opened first, so nothing falls between), and every POLL_MS while a search decides (its index
 * follows the catch by a moment). Resolves with the last read.
 */
async function watch(url: string, token: string, api: ManagementClient, q: HooksQuery, ms: number, done: (hooks: Hook[]) => boolean): Promise<Hook[]> {
  const deadline = Date.now() + ms;
  const abort = new AbortController();
  const params = new URLSearchParams(q.channel ? { channel: q.channel } : {});
  const res = await fetch(`${url}/v1/stream?${params}`, { headers: { authorization: `Bearer ${token}`, accept: "text/event-stream" }, signal: abort.signal });
  if (!res.ok || !res.body) throw new Error(`GET /v1/stream answered ${res.status}: ${await res.text()}`);
  let wake: () => void = () => {};
  const events = (async () => {
    try {
      for await (const e of readEvents(res.body!)) if (e.event === "hook") wake();
    } catch {
      // aborted at the end
    }
  })();
  try {
    let hooks = await listHooks(api, q);
    while (!done(hooks) && Date.now() < deadline) {
      await new Promise<void>((resolve) => {
        const left = deadline - Date.now();
        const timer = setTimeout(resolve, typeof q.where === "string" ? Math.min(POLL_MS, left) : left);
        wake = () => (clearTimeout(timer), resolve());
      });
      hooks = await listHooks(api, q);
    }
    return hooks;
  } finally {
    abort.abort();
    await events;
  }
}

const describeWhere = (q: HooksQuery) =>
  `${q.channel ? `channel "${q.channel}"` : "any channel"}${q.where === undefined ? "" : typeof q.where === "string" ? ` matching \`${q.where}\`` : " matching the where function"}`;

function line(h: Hook): string {
  const text = h.payload ? JSON.stringify(h.payload) : Buffer.from(h.body, "base64").toString("utf8");
  const excerpt = text.length > 80 ? `${text.slice(0, 77)}...` : text;
  return `  ${h.id} ${h.created_at} ${h.channel} ${h.event_type || "(no event type)"} ${h.status} ${excerpt.replace(/[\x00-\x1f\x7f]/g, " ")}`;
}

function listing(title: string, hooks: Hook[]): string[] {
  if (hooks.length === 0) return [`${title}: none.`];
  const shown = hooks.slice(-SHOWN);
  return [`${title} (${hooks.length}${hooks.length > SHOWN ? `, the last ${SHOWN}` : ""}, oldest first):`, ...shown.map(line)];
}

async function failure(api: ManagementClient, q: HooksQuery, head: string, matched: Hook[], refusals = false): Promise<HookExpectationError> {
  const [arrived, refused] = await Promise.all([
    listHooks(api, { channel: q.channel }).catch(() => [] as Hook[]),
    refusals ? api.refusals({ channel: q.channel, kind: "refused", limit: 5 }).catch(() => []) : [],
  ]);
  const lines = [head, ...listing("Matching", matched)];
  if (q.where !== undefined) lines.push(...listing(`Arrived in ${q.channel ? `channel "${q.channel}"` : "any channel"}`, arrived));
  // Hooks that never arrived were often refused: a guard's reason says why (a wrong secret, an old timestamp).
  if (refused.length > 0) lines.push(`Refused by guards (the last ${refused.length}, newest first):`);
  for (const r of refused)
    lines.push(`  ${r.created_at} ${r.method} ${r.channel}: guard ${r.guard} answered ${r.status}: ${r.reason.replace(/[\x00-\x1f\x7f]/g, " ")}`);
  return new HookExpectationError(lines.join("\n"), matched, arrived);
}

/**
 * Resolves with the matching hooks (oldest first) once `count` of them have arrived, stored before
 * the call or caught within `within`; rejects with HookExpectationError listing what arrived.
 */
export async function expectHooks(url: string, token: string, api: ManagementClient, o: ExpectHooks): Promise<Hook[]> {
  const within = ms(o.within, 5_000, "within");
  const settle = ms(o.settle, 0, "settle");
  const exact = typeof o.count === "number" ? o.count : undefined;
  const least = exact ?? (typeof o.count === "object" ? o.count.atLeast : 1);
  if (!Number.isInteger(least) || least < 0) throw new TypeError("count: must be a whole number, or { atLeast: n }");
  let hooks = await watch(url, token, api, o, within, (h) => h.length >= least);
  if (exact !== undefined && hooks.length === exact && settle > 0) hooks = await watch(url, token, api, o, settle, (h) => h.length > exact);
  const wanted = exact !== undefined ? `exactly ${exact}` : `at least ${least}`;
  const ok = exact !== undefined ? hooks.length === exact : hooks.length >= least;
  if (ok) return hooks;
  const plural = (n: number) => `${n} hook${n === 1 ? "" : "s"}`;
  throw await failure(
    api,
    o,
    `expectHooks: expected ${wanted} ${exact === 1 || least === 1 ? "hook" : "hooks"} in ${describeWhere(o)} within ${within} ms; ${plural(hooks.length)} arrived.`,
    hooks,
    hooks.length < least,
  );
}

/** Resolves after `during` if no matching hook is stored or arrives; rejects at the first one with what arrived. */
export async function expectNoHook(url: string, token: string, api: ManagementClient, o: ExpectNoHook): Promise<void> {
  const during = ms(o.during, 1_000, "during");
  const hooks = await watch(url, token, api, o, during, (h) => h.length > 0);
  if (hooks.length === 0) return;
  throw await failure(
    api,
    o,
    `expectNoHook: expected no hook in ${describeWhere(o)} during ${during} ms; ${hooks.length === 1 ? "1 hook" : `${hooks.length} hooks`} arrived.`,
    hooks,
  );
}
