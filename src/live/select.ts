import { channelMatches } from "../lib/caller";
import type { HookStatus } from "../hooks/store";
import type { Change, ChangeLog, Rendered } from "./bus";

/**
 * What each stream is sent, decided apart from reading, rendering and writing: pure functions of
 * the changes, the stream's position and its filter.
 */

/**
 * Which events a stream gets, and with `fields: "summary"` hooks without their bodies (a list needs
 * no more); with `latest`, of the hooks changed since its last write only the newest that many (a
 * screen that shows the newest hooks needs no more, however many arrive); with `hook`, of the hooks
 * only that one (a hook's screen).
 */
export type StreamFilter = {
  channel?: string;
  status?: HookStatus;
  fields?: "summary";
  latest?: number;
  hook?: string;
  /**
   * A limited caller's channels (glob patterns, lib/caller.ts): only their hooks, channels and
   * refusals, the breaker events of handlers that run on one of them, the issues of their channels.
   */
  channels?: readonly string[];
  /** Only hooks, channels and refusals: no issue or breaker events (a key scoped to channels, which may not read issues or handlers). */
  hooksOnly?: boolean;
};

/** The changes of a write a stream gets, by index into the write's changes, oldest first; `skipped` counts hooks `latest` left out. */
export type Selection = { picked: number[]; skipped: number };

/**
 * The changes after `cursor` that a stream with `filter` gets. It yields the index of each change
 * it must see rendered to decide (and is given the rendering back): whatever can be decided from
 * the change alone (another channel, another hook, a known status that differs, hooks past
 * `latest`) is decided without one, so those are never read. Newest first, so that `latest` keeps
 * the newest; a hook changed twice in the write takes one place under `latest`, with its newest
 * change (read when sent, it carries its newest state).
 *
 *   const run = select(changes, cursor, filter, superseded); let step = run.next();
 *   while (!step.done) step = run.next(await renderAt(step.value));
 */
export function* select(
  changes: readonly Change[],
  cursor: number,
  filter: StreamFilter,
  superseded: (c: Change) => boolean,
): Generator<number, Selection, Rendered> {
  const picked: number[] = [];
  let hooks = 0;
  let skipped = 0;
  const latest = filter.latest ?? Infinity;
  const seen = new Set<string>();
  for (let i = changes.length - 1; i >= 0; i--) {
    const change = changes[i]!;
    if (change.seq <= cursor) break;
    if (superseded(change)) continue;
    if (latest !== Infinity && change.kind === "hook") {
      if (seen.has(change.key)) continue;
      seen.add(change.key);
    }
    if (filter.channel && change.channel !== undefined && change.channel !== filter.channel) continue;
    if (filter.hooksOnly && (change.kind === "issue" || change.kind === "breaker")) continue;
    // An issue's channel is known once it is read (its scope).
    if (
      filter.channels &&
      change.kind !== "issue" &&
      !limitSees(filter.channels, change.channel ?? (change.kind === "channel" ? change.key : ""), change.channels)
    )
      continue;
    if (filter.hook && change.kind === "hook" && change.key !== filter.hook) continue;
    // A hook whose status is known without a read (one just caught is pending) and is not the stream's.
    if (filter.status && change.status && change.status !== filter.status) continue;
    if (change.kind === "hook" && hooks >= latest) {
      skipped++;
      continue;
    }
    const r = yield i;
    if (!r || !passes(filter, r)) continue;
    if (change.kind === "hook") hooks++;
    picked.push(i);
  }
  return { picked: picked.reverse(), skipped };
}

/** `select` with renderings at hand: for tests, and for a caller that has them all. */
export function selectWith(
  changes: readonly Change[],
  cursor: number,
  filter: StreamFilter,
  render: (i: number) => Rendered,
  superseded = supersededChannels(changes),
): Selection {
  const run = select(changes, cursor, filter, superseded);
  let step = run.next();
  while (!step.done) step = run.next(render(step.value));
  return step.value;
}

/** Whether a rendered change passes a filter's channel and status (channel and refusal events have no status). */
export function passes(filter: StreamFilter, r: NonNullable<Rendered>): boolean {
  return (
    (!filter.channel || filter.channel === r.channel) &&
    (!filter.channels || limitSees(filter.channels, r.channel, r.channels)) &&
    (!filter.status || r.event !== "hook" || r.status === filter.status)
  );
}

/**
 * Whether a caller limited to `limit` sees an event: of its channel, or, for an event of no one
 * channel (a breaker, an issue), of one of the channels it concerns; never one that concerns none.
 */
function limitSees(limit: readonly string[], channel: string, channels: readonly string[] | undefined): boolean {
  if (channel !== "") return channelMatches(limit, channel);
  return channels?.some((c) => channelMatches(limit, c)) === true;
}

/**
 * A channel changed several times in one write is sent once, as it is then: its event carries its
 * state when read, so the earlier changes would repeat the last. True for the earlier ones.
 */
export function supersededChannels(changes: readonly Change[]): (c: Change) => boolean {
  const lastOfChannel = new Map<string, number>();
  for (const change of changes) if (change.kind === "channel") lastOfChannel.set(change.key, change.seq);
  return (change) => change.kind === "channel" && lastOfChannel.get(change.key) !== change.seq;
}

/** The event's data as a stream with `filter` gets it: a hook's summary with `fields=summary`, else the whole resource. */
export function payloadOf(filter: StreamFilter, r: NonNullable<Rendered>): string {
  return (filter.fields === "summary" && r.summary ? r.summary : (r.data ?? r.summary)) ?? "";
}

/** Streams at the same position with the same filter and encoding are sent the same bytes. */
export function planKey(cursor: number, filter: StreamFilter, deflate: boolean): string {
  return `${cursor}|${filter.channel ?? ""}|${filter.status ?? ""}|${filter.fields ?? ""}|${filter.latest ?? ""}|${filter.hook ?? ""}|${deflate ? "deflate" : ""}|${filter.channels?.join(",") ?? ""}|${filter.hooksOnly ? "hooks" : ""}`;
}

/**
 * Whether a stream wants the summary of every hook it passes (`fields=summary` without `latest` or
 * `hook`): only then is a caught hook's summary worth keeping with its change.
 */
export const wantsEverySummary = (f: StreamFilter) => f.fields === "summary" && f.latest === undefined && f.hook === undefined;

/**
 * Where a stream opened with `lastEventId` starts: with none, at the head; with an id of this
 * process still kept, right after it (every change since is sent first); with any other (too old,
 * from before a restart, garbage), at the head with `reset` (the client reads its lists again).
 */
export function startOf(lastEventId: string | null, log: Pick<ChangeLog, "head" | "parseId" | "since">): { cursor: number; reset: boolean } {
  if (lastEventId === null) return { cursor: log.head(), reset: false };
  const from = log.parseId(lastEventId);
  if (from === undefined || log.since(from) === undefined) return { cursor: log.head(), reset: true };
  return { cursor: from, reset: false };
}
