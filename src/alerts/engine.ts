import type { MatchableHook } from "../config/checks";
import type { CaughtRow, Change } from "../hooks/changes";
import type { Clock } from "../lib/clock";
import { ulidTime } from "../lib/ids";
import type { Log } from "../lib/log";
import type { Worker } from "../lib/worker";
import type { IssueRow, IssueStore } from "./store";
import { findings, type Finding, type KindDeps, type Watch } from "./kinds";
import { reasonKind, type Rule } from "./rules";
import { add } from "./counts";
import type { IssueEvents } from "./events";

export type EngineDeps = KindDeps & {
  rules: readonly Rule[];
  /** A hook caught by another instance, read for the rules with a query (they match its body and headers). */
  getHook: (id: string) => Promise<MatchableHook | undefined>;
  store: IssueStore;
  events: IssueEvents;
  clock: Clock;
  log: Log;
  newId: () => string;
};

/**
 * The rules' engine: `observe` records what the change sink reports (cheap, on every instance,
 * never on the catching path's await), and the worker (`tick`, run by the runner on one instance
 * at a time: storage.singleton) evaluates every rule, opens an issue per rule and scope that
 * fires, reminds, and resolves those whose condition cleared.
 */
export function createAlertEngine(deps: EngineDeps) {
  const { store, clock, events } = deps;
  let rules = deps.rules;
  const started = clock.now();
  const watch: Watch = {
    started,
    lastHook: new Map(),
    arrivals: new Map(),
    refusals: new Map(),
    failures: new Map(),
    fresh: new Map(),
    knownTypes: new Map(),
    relaysSeen: new Map(),
    openedCache: new Map(),
    askedAt: new Map(),
  };
  /** Scopes resolved by hand while their condition held: not opened again until it cleared. */
  const muted = new Set<string>();
  const resolvedLately: string[] = [];
  let needs = new Set<string>();
  let namedTypes = new Set<string>();
  /** The rules with a query (silence, rate, new_event_type): each hook is matched against it, counted under "?rule\nchannel". */
  let queried: Rule[] = [];
  /** How long arrivals and refusals are kept: the longest window (an instance that does not evaluate prunes them too). */
  let keepMs = 0;
  function setRules(next: readonly Rule[]): void {
    rules = next;
    needs = new Set(rules.filter((r) => !r.match).map((r) => r.kind));
    namedTypes = new Set(rules.flatMap((r) => r.event_types ?? []));
    queried = rules.filter((r) => r.match);
    keepMs = Math.max(0, ...rules.map((r) => r.window ?? 0));
    const names = new Set(rules.map((r) => r.name));
    for (const k of muted) if (!names.has(k.slice(0, k.indexOf("\n")))) muted.delete(k);
  }
  setRules(rules);

  /** One hook caught (here, or by another instance: then without body and headers, read again only for a query). */
  function caught(h: { id: string; channel: string; eventType: string; createdAt: number }, row?: CaughtRow): void {
    if (needs.has("silence")) {
      watch.lastHook.set(`${h.channel}\n`, h.createdAt);
      // Only the event types a rule names: a sender chooses the others, without bound.
      if (namedTypes.has(h.eventType)) watch.lastHook.set(`${h.channel}\n${h.eventType}`, h.createdAt);
    }
    if (needs.has("rate")) {
      add(watch.arrivals, `${h.channel}\n`, h.createdAt, keepMs);
      if (namedTypes.has(h.eventType)) add(watch.arrivals, `${h.channel}\n${h.eventType}`, h.createdAt, keepMs);
    }
    if (needs.has("new_event_type") && h.eventType) {
      const k = `${h.channel}\n${h.eventType}`;
      if (!watch.fresh.has(k) && watch.fresh.size < MAX_FRESH) watch.fresh.set(k, { channel: h.channel, type: h.eventType, at: h.createdAt });
    }
    // Without rules of a query (most setups), nothing is made per hook.
    if (queried.length === 0) return;
    const matching = queried.filter((r) => r.watches(h.channel));
    if (matching.length > 0) {
      const done = matchQueries(matching, h, row).finally(() => pending.delete(done));
      pending.add(done);
    }
  }
  /** Matches under way: an evaluation waits for those begun before it (a hook caught is counted at the next one). */
  const pending = new Set<Promise<void>>();

  /** Counts a hook for each rule whose query finds it (after the catch: decoding a payload is not the catching path's). */
  async function matchQueries(matching: Rule[], h: { id: string; channel: string; eventType: string; createdAt: number }, row?: CaughtRow): Promise<void> {
    try {
      const hook: MatchableHook | undefined = row ? { ...row, headers: JSON.parse(row.headers) } : await deps.getHook(h.id);
      if (!hook) return;
      for (const rule of matching) {
        if (!(await rule.match!.matches(hook))) continue;
        const key = `?${rule.name}\n${h.channel}`;
        if (rule.kind === "silence") watch.lastHook.set(key, Math.max(watch.lastHook.get(key) ?? 0, h.createdAt));
        else if (rule.kind === "new_event_type") {
          const k = `?${rule.name}\n${h.channel}\n${h.eventType}`;
          if (h.eventType && !watch.fresh.has(k) && watch.fresh.size < MAX_FRESH)
            watch.fresh.set(k, { channel: h.channel, type: h.eventType, at: h.createdAt, rule: rule.name });
        } else add(watch.arrivals, key, h.createdAt, keepMs);
      }
    } catch (error) {
      deps.log.warn("an alert rule's query could not be matched", { error: String(error) });
    }
  }

  function observe(change: Change): void {
    if (change.kind === "caught") {
      for (const h of change.hooks) caught(h, h);
    } else if (change.kind === "hook" && change.eventType !== undefined) {
      // Caught by another instance (the change feed): its time is its id's.
      caught({ id: change.id, channel: change.channel, eventType: change.eventType, createdAt: ulidTime(change.id) });
    } else if (change.kind === "refusal" && change.refusal.kind === "refused" && needs.has("refusals")) {
      add(watch.refusals, `${change.refusal.channel}\n`, change.at, keepMs);
      add(watch.refusals, `${change.refusal.channel}\n${reasonKind(change.refusal)}`, change.at, keepMs);
    } else if (change.kind === "issue" && change.event === "resolved") {
      // Resolved here or on another instance: if by hand, not opened again while its condition holds.
      if (resolvedLately.push(change.id) > 1000) resolvedLately.shift();
    } else if (change.kind === "hook" && change.status && needs.has("handler")) {
      if (change.status === "failed") watch.failures.set(change.channel, (watch.failures.get(change.channel) ?? 0) + 1);
      else if (change.status === "handled") watch.failures.set(change.channel, 0);
    }
  }

  async function evaluate(now: number): Promise<void> {
    if (rules.length === 0) return;
    if (pending.size > 0) await Promise.all([...pending]);
    for (const id of resolvedLately.splice(0)) {
      const issue = await store.get(id);
      if (issue && issue.history.at(-1)?.by !== "mailroom") muted.add(key(issue.rule, issue.scope));
    }
    const fresh = [...watch.fresh.values()];
    watch.fresh.clear();
    const open = new Map<string, IssueRow>();
    for (const issue of await store.unresolved()) open.set(key(issue.rule, issue.scope), issue);
    for (const rule of rules) {
      const result = await findings(rule, now, { ...watch, fresh }, deps);
      const firing = new Set<string>();
      for (const f of result.firing) {
        const k = key(rule.name, f.scope);
        firing.add(k);
        if (muted.has(k)) continue;
        const issue = open.get(k);
        if (issue) await seenAgain(rule, issue, f, now);
        else await opened(rule, f, now);
      }
      for (const [k, issue] of open) {
        if (issue.rule !== rule.name || firing.has(k) || result.hold.has(issue.scope)) continue;
        if (rule.kind === "new_event_type") continue;
        await resolve(issue.id, "mailroom", now);
      }
      if (rule.kind === "new_event_type") continue;
      for (const k of muted) if (k.startsWith(`${rule.name}\n`) && !firing.has(k) && !result.hold.has(k.slice(rule.name.length + 1))) muted.delete(k);
    }
  }

  async function opened(rule: Rule, f: Finding, now: number): Promise<void> {
    const issue: IssueRow = {
      id: deps.newId(),
      rule: rule.name,
      kind: rule.kind,
      scope: f.scope,
      summary: f.summary,
      state: "open",
      openedAt: f.since ?? now,
      lastSeenAt: now,
      resolvedAt: null,
      count: f.count,
      hooksQuery: f.hooksQuery,
      notifiedAt: now,
      history: [{ at: now, action: "opened", by: "mailroom" }],
    };
    // The issue and its notices (the outbox) commit together: a crash loses neither alone.
    await store.transaction(async () => {
      await store.open(issue);
      await events.emit("opened", issue, rule.notify);
    });
  }

  async function seenAgain(rule: Rule, issue: IssueRow, f: Finding, now: number): Promise<void> {
    const count = f.accumulate ? issue.count + f.count : f.count;
    if (count !== issue.count || f.summary !== issue.summary) await store.seen(issue.id, now, count, f.summary);
    if (rule.repeat && issue.state === "open" && now - issue.notifiedAt >= rule.repeat) {
      await store.transaction(async () => {
        // Acknowledged or resolved (by hand, on any instance) since the issues were read: no reminder.
        if (!(await store.notified(issue.id, now))) return;
        await events.emit("reminded", { ...issue, count, summary: f.summary, lastSeenAt: now }, rule.notify);
      });
    }
  }

  /**
   * Resolves an issue (by hand: `by` is who; "mailroom" when its condition cleared). Resolves to
   * the issue, "conflict" when it is resolved already, undefined when there is none.
   */
  async function resolve(id: string, by: string, now = clock.now()) {
    return store.transaction(async () => {
      const done = await store.transition(id, ["open", "acknowledged"], "resolved", { at: now, action: "resolved", by });
      if (done && done !== "conflict") await events.emit("resolved", done, rules.find((r) => r.name === done.rule)?.notify ?? []);
      return done;
    });
  }

  const worker: Worker = {
    name: "alerts",
    async tick(now) {
      try {
        await evaluate(now);
      } catch (error) {
        deps.log.error("alert rules could not be evaluated", { error: String(error) });
      }
      return now + 1000;
    },
  };
  return { observe, worker, resolve, evaluate, setRules, rules: () => rules, lastHookTime: (id: string) => ulidTime(id) };
}

const key = (rule: string, scope: string) => `${rule}\n${scope}`;

/** Event types waiting to be checked, at most (a sender may invent any number). */
const MAX_FRESH = 10_000;

export type AlertEngine = ReturnType<typeof createAlertEngine>;
