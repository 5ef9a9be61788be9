import { type Change, type ChangeSink, ISSUE_EVENTS, type IssueEvent, type StatePart } from "../hooks/changes";
import { HOOK_STATUSES, type HookStatus } from "../hooks/status";
import type { ChangeFeed } from "./feed";

/**
 * Joins the change sink to the feed the instances sharing a database talk over: every change made
 * here is published once committed, and every change another instance published is emitted here
 * as `remote` (nobody publishes those again). `resync` is called when changes may have been missed
 * (the feed's connection was lost and is back).
 *
 * On the wire (db/pg/feed.ts): `caught` carries a `channel/id/event type` list (the type
 * percent-encoded), `hook` a `channel/id/status` list (the status when it changed), `channel` a
 * name, `refusal` its JSON, `state` the part. What alerts count (alerts/engine.ts: rates,
 * failures in a row, new event types) so reaches the instance evaluating the rules, whichever caught.
 */
export function connectFeed(feed: ChangeFeed, sink: ChangeSink, resync: () => void): void {
  sink.subscribe((change, origin) => {
    // A breaker is each instance's own (it counts the failures it sees): its transitions are not shared.
    if (origin === "local" && change.kind !== "breaker") feed.publish(...encode(change));
  });
  feed.subscribe((topic, key) => {
    if (topic === null) return resync();
    for (const change of decode(topic, key)) sink.emit(change, "remote");
  });
}

/** A change as the feed's topic and key. */
export function encode(change: Exclude<Change, { kind: "breaker" }>): [string, string] {
  switch (change.kind) {
    case "caught":
      return ["caught", change.hooks.map((h) => `${h.channel}/${h.id}/${encodeURIComponent(h.eventType)}`).join(",")];
    case "hook":
      return ["hook", `${change.channel}/${change.id}${change.status ? `/${change.status}` : ""}`];
    case "channel":
      return ["channel", change.name];
    case "refusal":
      return ["refusal", JSON.stringify({ refusal: change.refusal, at: change.at })];
    case "state":
      return ["state", change.part];
    case "issue":
      return ["issue", `${change.event}/${change.id}`];
  }
}

/** Every state part (a Record, so a part added to StatePart and not here fails to compile). */
const PART_NAMES: Record<StatePart, true> = {
  guards: true,
  forwards: true,
  responses: true,
  api_keys: true,
  users: true,
  dedup: true,
  default_guards: true,
  setup: true,
  relays: true,
  paused_handlers: true,
  alert_rules: true,
};
const PARTS = new Set(Object.keys(PART_NAMES));

/**
 * The changes a published topic and key stand for; nothing for what cannot be read (another
 * version's message). Hooks caught elsewhere arrive as hook changes with their event type: their
 * other details stay there.
 */
export function decode(topic: string, key: string): Change[] {
  switch (topic) {
    case "caught":
    case "hook": {
      const out: Change[] = [];
      for (const k of key.split(",")) {
        const [channel, id, more] = k.split("/");
        if (!channel || !id) continue;
        const change: Change = { kind: "hook", id, channel };
        if (topic === "caught") change.eventType = more === undefined ? "" : safeDecode(more);
        else if (more && (HOOK_STATUSES as readonly string[]).includes(more)) change.status = more as HookStatus;
        out.push(change);
      }
      return out;
    }
    case "channel":
      return key ? [{ kind: "channel", name: key }] : [];
    case "refusal":
      try {
        const { refusal, at } = JSON.parse(key);
        return refusal && typeof at === "number" ? [{ kind: "refusal", refusal, at }] : [];
      } catch {
        return [];
      }
    case "issue": {
      const [event, id] = key.split("/");
      return ISSUE_EVENTS.includes(event as IssueEvent) && id ? [{ kind: "issue", event: event as IssueEvent, id }] : [];
    }
    case "state":
      return PARTS.has(key) ? [{ kind: "state", part: key as Extract<Change, { kind: "state" }>["part"] }] : [];
    default:
      return [];
  }
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return "";
  }
}
