import { type Change, type ChangeSink, ISSUE_EVENTS, type IssueEvent, type StatePart } from "../hooks/changes";
import type { ChangeFeed } from "./feed";

/**
 * Joins the change sink to the feed the instances sharing a database talk over: every change made
 * here is published once committed, and every change another instance published is emitted here
 * as `remote` (nobody publishes those again). `resync` is called when changes may have been missed
 * (the feed's connection was lost and is back).
 *
 * On the wire (db/pg/feed.ts): `caught` and `hook` carry `channel/id` lists, `channel` a name,
 * `refusal` its JSON, `state` the part.
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
      return ["caught", change.hooks.map((h) => `${h.channel}/${h.id}`).join(",")];
    case "hook":
      return ["hook", `${change.channel}/${change.id}`];
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
};
const PARTS = new Set(Object.keys(PART_NAMES));

/**
 * The changes a published topic and key stand for; nothing for what cannot be read (another
 * version's message). Hooks caught elsewhere arrive as hook changes: their details stay there.
 */
export function decode(topic: string, key: string): Change[] {
  switch (topic) {
    case "caught":
    case "hook": {
      const out: Change[] = [];
      for (const k of key.split(",")) {
        const at = k.indexOf("/");
        if (at > 0) out.push({ kind: "hook", id: k.slice(at + 1), channel: k.slice(0, at) });
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
