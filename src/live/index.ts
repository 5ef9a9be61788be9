import type { ChannelService } from "../hooks/channels";
import { hookSummaryJson, toWireChannel } from "../hooks/model";
import type { HookService } from "../hooks/service";
import type { HookStore, NewHook } from "../hooks/store";
import type { HookOutcomes } from "../runner/types";
import { createChangeLog, type Change, type Rendered } from "./bus";
import { createStreams } from "./stream";
import { toRfc3339 } from "../lib/clock";

/**
 * Live updates: the services are wrapped so that every change is recorded (hooks caught or
 * changed, channels paused, resumed, deleted or whose stats moved), and streams send them.
 */
export function createLive(deps: {
  store: HookStore; hooks: () => HookService; heartbeatMs?: number; maxUnread?: number; kept?: number;
  /** Told of each change made here, for the instances sharing the database (the change feed). */
  shared?: (topic: "hook" | "caught" | "channel" | "refusal", key: string) => void;
}) {
  const { store } = deps;
  const share = deps.shared ?? (() => {});
  /** A channel's stats or state changed here. */
  const channelChanged = (name: string) => {
    log.channel(name);
    share("channel", name);
  };
  const log = createChangeLog({ kept: deps.kept, epoch: Date.now().toString(36) });

  /**
   * A change as sent; for a hook the whole resource only when `full` (a stream wants it), always its
   * summary. What needs no read (a refusal, a hook just caught) is made at once, not in a promise.
   */
  function render(c: Change, full = true): Rendered | Promise<Rendered> {
    if (c.kind === "refusal") return { event: "refusal", channel: c.channel!, data: c.key };
    if (c.kind === "channel") return renderChannel(c.key);
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
  async function renderHook(id: string, channel: string, full: boolean): Promise<Rendered> {
    // A summary needs no body: only its size is read.
    const raw = full ? await store.getHook(id).then((h) => h && { ...h, size: h.body.byteLength }) : await store.getHookSummary(id);
    if (!raw) return { event: "hook-deleted", channel, data: JSON.stringify({ id, channel }) };
    const summary = hookSummaryJson({ ...raw, contentType: raw.headers["content-type"] ?? null });
    if (!full) return { event: "hook", channel: raw.channel, status: raw.status, summary };
    const hook = await deps.hooks().get(id).catch(() => undefined);
    if (!hook) return undefined;
    return { event: "hook", channel: hook.channel, status: hook.status, data: JSON.stringify(hook), summary };
  }
  const streams = createStreams({ log, render, heartbeatMs: deps.heartbeatMs, maxUnread: deps.maxUnread });

  /**
   * Hooks whose change was recorded lately. A batch is announced once durable, and meanwhile the
   * runner or a user may already have changed one of its hooks: such a hook's caught event is read
   * from the database then, not summarised as pending after its newer status.
   */
  const changedLately = new Set<string>();
  function noteChanged(id: string): void {
    changedLately.add(id);
    if (changedLately.size > 4096) changedLately.delete(changedLately.values().next().value!);
  }

  function hookChanged(id: string, channel: string): void {
    noteChanged(id);
    log.hook(channel, id);
    log.channel(channel);
    share("hook", `${channel}/${id}`);
  }

  return {
    log,
    streams,
    /**
     * A change another instance made (the change feed): recorded for the streams here, as if made
     * here, and not shared again.
     */
    applyShared(topic: string, key: string): void {
      if (topic === "refusal") {
        const at = key.indexOf("\n");
        if (at > 0) log.refusal(key.slice(0, at), key.slice(at + 1));
        return;
      }

      if (topic === "channel") return void log.channel(key);
      if (topic !== "hook" && topic !== "caught") return;
      const channels = new Set<string>();
      for (const k of key.split(",")) {
        const at = k.indexOf("/");
        if (at <= 0) continue;
        const channel = k.slice(0, at);
        noteChanged(k.slice(at + 1));
        log.hook(channel, k.slice(at + 1));
        channels.add(channel);
      }
      for (const c of channels) log.channel(c);
    },
    /** Called for each request a guard refused (the Refusal as ListRefusals shows it). */
    refused(r: { channel: string; guard: string; status: number; reason: string; ip: string; method: string }, now: number): void {
      const wire = { channel: r.channel, guard: r.guard, status: r.status, reason: r.reason, created_at: toRfc3339(now), ip: r.ip, method: r.method };
      const json = JSON.stringify(wire);
      log.refusal(r.channel, json);
      share("refusal", `${r.channel}\n${json}`);
    },
    /** Called once a batch of caught hooks is committed. */
    caught(batch: readonly CaughtHook[]): void {
      const channels = new Set<string>();
      // While a stream wants every hook's summary each change keeps the hook as caught (a few
      // strings, not its body). Kept for every hook caught, that costs the catching endpoint a few
      // per cent: dashboards, which take the newest 50 or one hook, read theirs back instead.
      const keep = streams.wantsEverySummary();
      for (const h of batch) {
        const pending = !changedLately.has(h.id);
        // A long query is read back when sent rather than held by the change log (senders choose it).
        const snapshot = keep && pending && h.contentType !== undefined && h.query.length <= SNAPSHOT_QUERY_MAX
          ? { method: h.method, query: h.query, contentType: h.contentType, ip: h.ip, createdAt: h.createdAt, size: h.body.byteLength }
          : undefined;
        log.hook(h.channel, h.id, snapshot, pending ? "pending" : undefined);
        channels.add(h.channel);
      }
      for (const c of channels) log.channel(c);
      if (deps.shared) share("caught", batch.map((h) => `${h.channel}/${h.id}`).join(","));
    },
    /** The hook service with every change recorded. */
    watchHooks(hooks: HookService): HookService {
      const after = <A extends unknown[], R>(fn: (id: string, ...a: A) => Promise<R>) => async (id: string, ...a: A) => {
        const channel = (await store.getHook(id))?.channel;
        try {
          return await fn(id, ...a);
        } finally {
          if (channel) hookChanged(id, channel);
        }
      };
      const outcomes: HookOutcomes = {
        async handled(id) {
          await hooks.outcomes.handled(id);
          const h = await store.getHook(id);
          if (h) hookChanged(id, h.channel);
        },
        async failed(id, handler, message) {
          await hooks.outcomes.failed(id, handler, message);
          const h = await store.getHook(id);
          if (h) hookChanged(id, h.channel);
        },
      };
      return {
        ...hooks,
        outcomes,
        discard: after(hooks.discard),
        async bulk(action, ids, actor) {
          const changed = await hooks.bulk(action, ids, actor);
          for (const h of changed) hookChanged(h.id, h.channel);
          return changed;
        },
        retry: after(hooks.retry),
        process: after(hooks.process),
        fail: after(hooks.fail),
        async delete(id: string) {
          const channel = (await store.getHook(id))?.channel;
          await hooks.delete(id);
          if (channel) hookChanged(id, channel);
        },
      };
    },
    /** The channel service with pause, resume and delete recorded. */
    watchChannels(channels: ChannelService): ChannelService {
      const deletions = new WeakMap<Promise<void>, Promise<void>>();
      return {
        ...channels,
        pause: async (name) => {
          const row = await channels.pause(name);
          channelChanged(name);
          return row;
        },
        setGuards: async (name, guards) => {
          const row = await channels.setGuards(name, guards);
          channelChanged(name);
          return row;
        },
        resume: async (name) => {
          const row = await channels.resume(name);
          channelChanged(name);
          return row;
        },
        // The same promise for a delete that joins a running one, as the service gives.
        delete(name) {
          const inner = channels.delete(name);
          let wrapped = deletions.get(inner);
          if (!wrapped) {
            wrapped = inner.finally(() => channelChanged(name));
            deletions.set(inner, wrapped);
          }
          return wrapped;
        },
      };
    },
  };
}

/** What `caught` needs of a hook. */
type CaughtHook = Pick<NewHook, "id" | "channel" | "method" | "query" | "ip" | "createdAt" | "body" | "contentType">;

export type Live = ReturnType<typeof createLive>;

/** Longest query kept with a caught hook's change (longer ones are read back from the database). */
const SNAPSHOT_QUERY_MAX = 2048;
