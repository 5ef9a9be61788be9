import type { RefusalInput } from "../hooks/guards/types";
import type { CaughtRow, Change as Committed } from "../hooks/changes";
import { hookSummaryJson, toWireChannel, toWireRefusal } from "../hooks/model";
import { bodyPreview, PREVIEW_BYTES } from "../hooks/preview";
import type { HookService } from "../hooks/service";
import type { HookStore } from "../hooks/store";
import { createChangeLog, type Change, type Rendered } from "./bus";
import { createStreams } from "./stream";

/**
 * Live updates: every committed change (the change sink, hooks/changes.ts; this instance's and the
 * other instances' through the change feed) is recorded in a log of keys by `apply`, and streams
 * send them, reading what they show when they send it.
 */
export function createLive(deps: {
  store: HookStore;
  hooks: () => HookService;
  /** An alert's issue as the stream sends it (issue.<event>: its JSON, and its scope), read when sent; undefined when gone. */
  issue?: (id: string) => Promise<{ data: string; scope: string } | undefined>;
  /** Hooks' tags (tags/): a hook's summary carries them, as a list's with `include=extensions` does. */
  tags?: (ids: readonly string[]) => Promise<Map<string, string[]>>;
  heartbeatMs?: number;
  maxUnread?: number;
  kept?: number;
}) {
  const { store } = deps;
  const log = createChangeLog({ kept: deps.kept, epoch: Date.now().toString(36) });

  /**
   * A change as sent; for a hook the whole resource only when `full` (a stream wants it), always its
   * summary. What needs no read (a refusal, a hook just caught) is made at once, not in a promise.
   */
  function render(c: Change, full = true): Rendered | Promise<Rendered> {
    if (c.kind === "refusal") return { event: "refusal", channel: c.channel!, data: c.key };
    if (c.kind === "channel") return renderChannel(c.key);
    if (c.kind === "issue") return renderIssue(c.key);
    if (c.kind === "breaker") {
      const slash = c.key.indexOf("/");
      return { event: c.key.slice(0, slash), channel: "", data: c.key.slice(slash + 1), channels: c.channels ?? [] };
    }
    // A hook just caught: its summary is the hook as caught, and a list wants nothing more.
    if (c.caught && !full) {
      const summary = hookSummaryJson({ id: c.key, channel: c.channel!, status: "pending", ...c.caught, finalizedAt: null });
      return { event: "hook", channel: c.channel!, status: "pending", summary };
    }
    return renderHook(c.key, c.channel!, full);
  }
  async function renderChannel(name: string): Promise<Rendered> {
    const row = await store.getChannel(name);
    return row
      ? { event: "channel", channel: name, data: JSON.stringify(toWireChannel(row)) }
      : { event: "channel-deleted", channel: name, data: JSON.stringify({ name }) };
  }
  async function renderIssue(key: string): Promise<Rendered> {
    const [event, id] = key.split("/") as [string, string];
    const issue = await deps.issue?.(id);
    if (issue === undefined) return undefined;
    // Its channel, when its scope is one ("orders", "orders/invoice.paid"; not a handler's,
    // "handler:x"): a limited caller sees the issues of its channels only (db/caller-filter.ts).
    const channel = issue.scope.split("/")[0]!;
    return { event: `issue.${event}`, channel: "", data: issue.data, channels: channel.includes(":") ? [] : [channel] };
  }
  async function renderHook(id: string, channel: string, full: boolean): Promise<Rendered> {
    // A summary needs no body: only its size is read.
    const raw = full
      ? await store.getHook(id).then((h) => h && { ...h, size: h.body.byteLength, head: h.body.subarray(0, PREVIEW_BYTES) })
      : await store.getHookSummary(id);
    if (!raw) return { event: "hook-deleted", channel, data: JSON.stringify({ id, channel }) };
    const tagged = (await deps.tags?.([id]))?.get(id);
    const plain = hookSummaryJson({ ...raw, contentType: raw.headers["content-type"] ?? null, preview: bodyPreview(raw.head) });
    // Its tags, when it has any (a tag added or removed sends the hook again: db/stores/tags.ts).
    const summary = tagged ? `${plain.slice(0, -1)},"tags":${JSON.stringify(tagged)}}` : plain;
    if (!full) return { event: "hook", channel: raw.channel, status: raw.status, summary };
    const hook = await deps
      .hooks()
      .get(id)
      .catch(() => undefined);
    if (!hook) return undefined;
    return { event: "hook", channel: hook.channel, status: hook.status, data: JSON.stringify(hook), summary };
  }
  const streams = createStreams({ log, render, heartbeatMs: deps.heartbeatMs, maxUnread: deps.maxUnread });

  /**
   * Hooks whose change was recorded lately. A batch is announced once durable, and meanwhile the
   * runner or a user may already have changed one of its hooks: such a hook's caught event is read
   * from the database then, not summarised as pending after its newer status.
   */
  // Two generations of up to 4,096 ids each, the older dropped whole: deleting a Set's oldest entry
  // one at a time made each deletion walk the entries deleted before it (3% of upstream's CPU while
  // a relay backlog drained and every hook changed status).
  let changedLately = new Set<string>();
  let changedBefore = new Set<string>();
  function noteChanged(id: string): void {
    changedLately.add(id);
    if (changedLately.size > 4096) (changedBefore = changedLately), (changedLately = new Set());
  }

  /** A batch of caught hooks, made durable here or by another instance. */
  function caught(batch: readonly CaughtRow[]): void {
    const channels = new Set<string>();
    // While a stream wants every hook's summary each change keeps the hook as caught (a few
    // strings, not its body). Kept for every hook caught, that costs the catching endpoint a few
    // per cent: dashboards, which take the newest 50 or one hook, read theirs back instead.
    const keep = streams.wantsEverySummary();
    for (const h of batch) {
      const pending = !changedLately.has(h.id) && !changedBefore.has(h.id);
      // A long query is read back when sent rather than held by the change log (senders choose it).
      const snapshot =
        keep && pending && h.contentType !== undefined && h.query.length <= SNAPSHOT_QUERY_MAX
          ? {
              method: h.method,
              query: h.query,
              contentType: h.contentType,
              ip: h.ip,
              createdAt: h.createdAt,
              size: h.body.byteLength,
              eventType: h.eventType,
              verified: h.verified,
              preview: bodyPreview(h.body.subarray(0, PREVIEW_BYTES)),
            }
          : undefined;
      log.hook(h.channel, h.id, snapshot, pending ? "pending" : undefined);
      channels.add(h.channel);
    }
    for (const c of channels) log.channel(c);
  }

  return {
    log,
    streams,
    /**
     * Records a committed change for the streams (one subscriber of the change sink). A hook's
     * change moves its channel's stats too. Settings changes are not streamed.
     */
    apply(change: Committed): void {
      switch (change.kind) {
        case "caught":
          return caught(change.hooks);
        case "hook":
          noteChanged(change.id);
          log.hook(change.channel, change.id, undefined, change.status);
          return void log.channel(change.channel);
        case "channel":
          return void log.channel(change.name);
        case "refusal":
          return void log.refusal(change.refusal.channel, refusalJson(change.refusal, change.at));
        case "issue":
          return void log.issue(change.event, change.id);
        case "breaker": {
          const { handler, state, failures, until } = change;
          const data = { handler, state, failures, ...(until !== undefined ? { reopens_at: new Date(until).toISOString() } : {}) };
          return void log.breaker(`handler.breaker_${state}`, JSON.stringify(data), change.channels);
        }
        case "state":
          return;
      }
    },
  };
}

/** The Refusal as ListRefusals shows it, as JSON (what a `refusal` change carries). */
export function refusalJson(r: RefusalInput, now: number): string {
  const { request: _, ...kept } = r;
  return JSON.stringify(toWireRefusal({ ...kept, createdAt: now, diagnosis: r.diagnosis ?? null }));
}

export type Live = ReturnType<typeof createLive>;

/** Longest query kept with a caught hook's change (longer ones are read back from the database). */
const SNAPSHOT_QUERY_MAX = 2048;
