import type { Config } from "../config/schema";
import type { Clock } from "../lib/clock";
import type { Log } from "../lib/log";
import type { HookRunner } from "../runner/types";
import type { ChannelService } from "./channels";
import type { FromThread, ToThread } from "./commit-thread";
import type { HookStore, NewHook } from "./store";

/**
 * How a batch of caught hooks is stored: inline, on the thread that serves HTTP, or on the commit
 * thread (its own connection, another core). Either way one transaction holds the hooks, their
 * channels' counters and their first handler attempts. The thread is used for file databases
 * unless `[storage] writer = "inline"`; if it fails, commits fall back to inline.
 */
export type Committer = {
  /** Returns when (inline) or resolves once (thread) the batch is durable; throws or rejects otherwise. */
  commit(batch: NewHook[]): void | Promise<void>;
  close(): Promise<void>;
  /** "thread" while the commit thread stores batches; "inline" otherwise, or after it failed. */
  mode(): "thread" | "inline";
};

export function createCommitter(deps: {
  config: Config;
  store: HookStore;
  channels: ChannelService;
  runner: HookRunner;
  clock: Clock;
  log: Log;
  /**
   * Where the thread's module is. main.ts passes it, resolved from the bundle's root, because inside
   * the executable every module shares the entry point's import.meta.url.
   */
  threadUrl?: string;
}): Committer {
  const { config, store, channels, runner, clock, log } = deps;
  const inline = (batch: NewHook[]) =>
    store.transaction(() => {
      store.insertHooks(batch, channels.guardsForNew);
      runner.queueCaught(batch);
    });
  if (config.storage.writer !== "thread" || config.storage.path === ":memory:") {
    return { commit: inline, close: async () => {}, mode: () => "inline" };
  }

  const worker = new Worker(deps.threadUrl ?? new URL("./commit-thread.ts", import.meta.url).href);
  worker.unref();
  const waiting = new Map<number, { batch: NewHook[]; resolve: () => void; reject: (e: Error) => void }>();
  let seq = 0;
  let broken = false;
  let closed: (() => void) | undefined;
  const send = (m: ToThread) => worker.postMessage(m);

  /**
   * The thread is gone: batches it had not acknowledged are committed here. A batch is one
   * transaction, so it was stored whole or not at all; a unique-key conflict means it was stored.
   */
  function breakDown(reason: string): void {
    if (broken) return;
    broken = true;
    log.error("the commit thread failed; committing on the main thread from now on", { reason });
    for (const w of waiting.values()) {
      try {
        inline(w.batch);
        w.resolve();
      } catch (error) {
        if (String(error).includes("UNIQUE constraint failed")) w.resolve();
        else w.reject(error as Error);
      }
    }
    waiting.clear();
  }

  worker.onmessage = (event: MessageEvent<FromThread>) => {
    const m = event.data;
    if (m.type === "done") {
      const w = waiting.get(m.seq);
      waiting.delete(m.seq);
      if (m.error === undefined) w?.resolve();
      else w?.reject(new Error(m.error));
    } else if (m.type === "fatal") breakDown(m.error);
    else closed?.();
  };
  worker.onerror = (event) => breakDown(event.message || "the commit thread crashed");
  send({
    type: "open",
    path: config.storage.path,
    durability: config.storage.durability,
    handlers: Object.fromEntries(config.channels.map((c) => [c.name, c.handlers])),
  });

  return {
    commit(batch) {
      if (broken) return inline(batch);
      const guardsOfNew: Record<string, string[]> = {};
      for (const h of batch) guardsOfNew[h.channel] ??= channels.guardsForNew(h.channel);
      return new Promise<void>((resolve, reject) => {
        waiting.set(++seq, { batch, resolve, reject });
        send({ type: "batch", seq, hooks: batch, guardsOfNew, now: clock.now() });
      });
    },
    mode: () => (broken ? "inline" : "thread"),
    async close() {
      if (!broken) {
        await new Promise<void>((resolve) => {
          closed = resolve;
          send({ type: "close" });
          setTimeout(resolve, 2000).unref();
        });
      }
      worker.terminate();
    },
  };
}
