import { ulidTime } from "../lib/ids";
import { type Counts, sum } from "./counts";
import type { HookStore } from "../hooks/store";
import { formatDuration, type Rule } from "./rules";

/** What the rules read besides what the engine observed. */
export type KindDeps = {
  hooks: Pick<HookStore, "listHookIds">;
  /** The relays' listeners: connected or not, and how long their oldest hook has waited (relay/state.ts). */
  relays: () => Promise<readonly { handler: string; channel: string; connected: boolean; lag_seconds: number }[]>;
  /** The handlers (relays aside) with their channels, and each one's queued attempts (runner/). */
  handlers: () => Promise<readonly { handler: { name: string }; channels: readonly string[] }[]>;
  backlog: (handler: string) => Promise<{ count: number; oldest: number | null }>;
  /** The channels there are (configured and stored), for silence rules with patterns. */
  channels: () => Promise<readonly string[]>;
};

/** What the engine keeps of what it observed (its own memory, per instance). */
export type Watch = {
  started: number;
  /** Last hook caught, by "channel\n" and, for the event types a rule names, "channel\nevent type". */
  lastHook: Map<string, number>;
  /** Hooks caught per second, by "channel\n" and "channel\nevent type" (the types a rule names). */
  arrivals: Counts;
  /** Refusals per second, by "channel\n" and "channel\nreason kind". */
  refusals: Counts;
  /** Hooks that ended failed in a row, by channel (a handled one starts again). */
  failures: Map<string, number>;
  /** Event types caught that may be new on their channel, by "channel\ntype", checked at the next evaluation. */
  fresh: Map<string, Fresh>;
  /** Event types known, by "rule\nchannel". */
  knownTypes: Map<string, Set<string>>;
  /** Relay listeners by handler: when last seen connected. */
  relaysSeen: Map<string, number>;
  /** A schedule's stretch opening, by rule, while it lasts. */
  openedCache: Map<string, { at: number; opened: number }>;
  /** When silence rules last asked the database for a channel's last hook, by "channel\n" and "channel\nevent type". */
  askedAt: Map<string, number>;
};

/** How often a silent channel's last hook is read from the database again (hooks after it reach the watch meanwhile). */
export const ASK_AGAIN_MS = 30_000;
/** `rule`: found by that rule's query (only that rule reads it); without, by every rule without a query. */
export type Fresh = { channel: string; type: string; at: number; rule?: string };

/** A scope where a rule fires now; `accumulate`: its count adds to the issue's (events), else replaces it (a level). */
export type Finding = { scope: string; summary: string; count: number; hooksQuery: string | null; since?: number; accumulate?: boolean };

/** What a rule finds now: the scopes firing, and those whose state must be left as it is (outside a schedule). */
export async function findings(
  rule: Rule,
  now: number,
  w: Omit<Watch, "fresh"> & { fresh: readonly Fresh[] },
  deps: KindDeps,
): Promise<{ firing: Finding[]; hold: Set<string> }> {
  const hold = new Set<string>();
  const firing: Finding[] = [];
  const q = (channel: string, extra = "") => `channel=${encodeURIComponent(channel)}${extra}`;
  switch (rule.kind) {
    case "silence": {
      const schedule = rule.parsedSchedule;
      const channels = new Set([...rule.named, ...(await deps.channels()).filter(rule.watches)]);
      for (const channel of channels) {
        if (schedule && !schedule.inside(now)) {
          hold.add(channel);
          continue;
        }
        let last = lastOf(w, rule, channel);
        if (now - last < rule.for!) continue;
        // Ask the database: another instance may have caught one, and before this one started only
        // the database knows (a query's hooks reach this one through the change feed: the
        // database's list cannot say which match). Its answer is remembered (lastHook), and it is
        // asked again at most every ASK_AGAIN_MS: later hooks reach the watch meanwhile (caught
        // here, or told by the change feed).
        for (const type of rule.match ? [] : (rule.event_types ?? [undefined])) {
          const key = `${channel}\n${type ?? ""}`;
          if (now - (w.askedAt.get(key) ?? Number.NEGATIVE_INFINITY) < ASK_AGAIN_MS) continue;
          w.askedAt.set(key, now);
          const [id] = await deps.hooks.listHookIds({ channel, eventType: type, limit: 1 });
          if (!id) continue;
          const at = ulidTime(id);
          last = Math.max(last, at);
          if (at > (w.lastHook.get(key) ?? 0)) w.lastHook.set(key, at);
        }
        if (now - last < rule.for!) continue;
        if (last === 0) {
          // No hook known: silent since start-up. Until `for` has passed since then, an issue
          // opened before a restart or a takeover is left as it is (neither resolved nor opened).
          if (now - w.started < rule.for!) {
            hold.add(channel);
            continue;
          }
          last = w.started;
        }
        if (schedule) {
          const cached = rule.name && w.openedCache.get(rule.name);
          const opened = cached && now - cached.at < 60_000 ? cached.opened : schedule.openedAt(now)!;
          w.openedCache.set(rule.name, { at: now, opened });
          if (now - opened < rule.for!) {
            hold.add(channel);
            continue;
          }
          last = Math.max(last, opened);
        }
        firing.push({
          scope: channel,
          summary: `no hook${rule.query ? ` matching ${rule.query}` : ""} on ${channel} for ${formatDuration(rule.for!)}`,
          count: 1,
          hooksQuery: q(channel, queryParam(rule)),
          since: last + rule.for!,
        });
      }
      break;
    }
    case "rate":
    case "refusals": {
      const counts = rule.kind === "rate" ? w.arrivals : w.refusals;
      const filter = rule.kind === "rate" ? rule.event_types : rule.reasons;
      const since = now - rule.window!;
      // A query's hooks are counted under "?rule\nchannel", the others under "channel\n…".
      const prefix = rule.match ? `?${rule.name}\n` : "";
      const keys = [...counts.keys()].filter((k) => (prefix ? k.startsWith(prefix) : !k.startsWith("?")));
      const channels = new Set(keys.map((k) => (prefix ? k.slice(prefix.length) : k.slice(0, k.indexOf("\n")))));
      for (const channel of channels) {
        if (!rule.watches(channel)) continue;
        const n = prefix
          ? sum(counts, `${prefix}${channel}`, since)
          : filter
            ? filter.reduce((t, x) => t + sum(counts, `${channel}\n${x}`, since), 0)
            : sum(counts, `${channel}\n`, since);
        if (n > rule.threshold!) {
          const what = rule.kind === "rate" ? `hooks${rule.query ? ` matching ${rule.query}` : ""}` : "refusals";
          firing.push({
            scope: channel,
            summary: `${n} ${what} on ${channel} in ${formatDuration(rule.window!)}`,
            count: n,
            hooksQuery: rule.kind === "rate" ? q(channel, queryParam(rule)) : null,
          });
        }
      }
      break;
    }
    case "handler": {
      const threshold = rule.threshold ?? 1;
      for (const [channel, n] of w.failures) {
        if (!rule.watches(channel) || n < threshold) continue;
        firing.push({ scope: channel, summary: `${n} hooks on ${channel} failed in a row`, count: n, hooksQuery: q(channel, "&status=failed") });
      }
      if (rule.for === undefined) break;
      // Each handler's backlog: its oldest queued attempt older than `for`.
      for (const { handler, channels } of await deps.handlers()) {
        if (rule.handlers ? !rule.handlers.includes(handler.name) : !channels.some(rule.watches)) continue;
        const { count, oldest } = await deps.backlog(handler.name);
        if (oldest === null || now - oldest < rule.for) continue;
        firing.push({
          scope: `handler:${handler.name}`,
          summary: `${count} attempts of ${handler.name} waiting, the oldest ${formatDuration(Math.floor((now - oldest) / 1000) * 1000)}`,
          count,
          hooksQuery: channels.length === 1 ? q(channels[0]!, "&status=pending") : null,
          since: oldest,
        });
      }
      break;
    }
    case "new_event_type": {
      for (const f of w.fresh) {
        if (f.rule !== (rule.match ? rule.name : undefined) || !rule.watches(f.channel)) continue;
        const known = w.knownTypes.get(`${rule.name}\n${f.channel}`) ?? new Set<string>();
        w.knownTypes.set(`${rule.name}\n${f.channel}`, known);
        if (known.has(f.type)) continue;
        // Hooks of that type before this one: it is not new (this instance started after them).
        const ids = await deps.hooks.listHookIds({ channel: f.channel, eventType: f.type, limit: 2 });
        known.add(f.type);
        if (ids.length > 1) continue;
        firing.push({
          scope: `${f.channel}/${f.type}`,
          summary: `first hook of event type ${f.type} on ${f.channel}${rule.query ? ` matching ${rule.query}` : ""}`,
          count: 1,
          hooksQuery: q(f.channel, `&event_type=${encodeURIComponent(f.type)}${queryParam(rule)}`),
          since: f.at,
          accumulate: true,
        });
      }
      break;
    }
    case "relay": {
      for (const r of await deps.relays()) {
        if (!rule.watches(r.channel)) continue;
        if (r.connected) w.relaysSeen.set(r.handler, now);
        const since = w.relaysSeen.get(r.handler) ?? w.started;
        if (!r.connected && now - since >= rule.for!) {
          firing.push({
            scope: r.handler,
            summary: `no relay listener on ${r.channel} for ${formatDuration(rule.for!)}`,
            count: 1,
            hooksQuery: q(r.channel),
            since,
          });
        } else if (r.lag_seconds * 1000 >= rule.for!) {
          const age = formatDuration(Math.round(r.lag_seconds) * 1000);
          firing.push({
            scope: r.handler,
            summary: `hooks on ${r.channel} wait for the relay listener, the oldest ${age}`,
            count: 1,
            hooksQuery: q(r.channel, "&status=pending"),
          });
        }
      }
      break;
    }
  }
  return { firing, hold };
}

/** `&q=...` of a rule with a query: its issue's hooks are those the search finds. */
const queryParam = (rule: Rule) => (rule.query ? `&q=${encodeURIComponent(rule.query)}` : "");

function lastOf(w: Pick<Watch, "lastHook">, rule: Rule, channel: string): number {
  if (rule.match) return w.lastHook.get(`?${rule.name}\n${channel}`) ?? 0;
  if (!rule.event_types) return w.lastHook.get(`${channel}\n`) ?? 0;
  return Math.max(0, ...rule.event_types.map((type) => w.lastHook.get(`${channel}\n${type}`) ?? 0));
}
