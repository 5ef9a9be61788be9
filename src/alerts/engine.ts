import type { Change } from "../hooks/changes";
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
  const { rules, store, clock, events } = deps;
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
  };
  /** Scopes resolved by hand while their condition held: not opened again until it cleared. */
  const muted = new Set<string>();
  const resolvedLately: string[] = [];
  const needs = new Set(rules.map((r) => r.kind));
  const namedTypes = new Set(rules.flatMap((r) => r.event_types ?? []));
  /** How long arrivals and refusals are kept: the longest window (an instance that does not evaluate prunes them too). */
  const keepMs = Math.max(0, ...rules.map((r) => r.window ?? 0));

  function observe(change: Change): void {
    if (change.kind === "caught") {
      for (const h of change.hooks) {
        if (needs.has("silence")) {
          watch.lastHook.set(`${h.channel}\n`, h.createdAt);
          // Only the event types a rule names: a sender chooses the others, without bound.
          if (namedTypes.has(h.eventType)) watch.lastHook.set(`${h.channel}\n${h.eventType}`, h.createdAt);
        }
        if (needs.has("rate")) {
          add(watch.arrivals, `${h.channel}\n`, h.createdAt, keepMs);
          if (namedTypes.has(h.eventType)) add(watch.arrivals, `${h.channel}\n${h.eventType}`, h.createdAt, keepMs);
        }
        const k = `${h.channel}\n${h.eventType}`;
        if (needs.has("new_event_type") && h.eventType && !watch.fresh.has(k) && watch.fresh.size < MAX_FRESH)
          watch.fresh.set(k, { channel: h.channel, type: h.eventType, at: h.createdAt });
      }
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
    await store.open(issue);
    events.emit("opened", issue, rule.notify);
  }

  async function seenAgain(rule: Rule, issue: IssueRow, f: Finding, now: number): Promise<void> {
    const count = f.accumulate ? issue.count + f.count : f.count;
    if (count !== issue.count || f.summary !== issue.summary) await store.seen(issue.id, now, count, f.summary);
    if (rule.repeat && issue.state === "open" && now - issue.notifiedAt >= rule.repeat) {
      await store.notified(issue.id, now);
      events.emit("reminded", { ...issue, count, summary: f.summary, lastSeenAt: now }, rule.notify);
    }
  }

  /**
   * Resolves an issue (by hand: `by` is who; "mailroom" when its condition cleared). Resolves to
   * the issue, "conflict" when it is resolved already, undefined when there is none.
   */
  async function resolve(id: string, by: string, now = clock.now()) {
    const done = await store.transition(id, ["open", "acknowledged"], "resolved", { at: now, action: "resolved", by });
    if (done && done !== "conflict") {
      events.emit("resolved", done, rules.find((r) => r.name === done.rule)?.notify ?? []);
    }
    return done;
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
  return { observe, worker, resolve, evaluate, lastHookTime: (id: string) => ulidTime(id) };
}

const key = (rule: string, scope: string) => `${rule}\n${scope}`;

/** Event types waiting to be checked, at most (a sender may invent any number). */
const MAX_FRESH = 10_000;

export type AlertEngine = ReturnType<typeof createAlertEngine>;
