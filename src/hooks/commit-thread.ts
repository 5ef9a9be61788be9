/**
 * The commit thread (a Bun Worker with its own SQLite connection): stores each batch of caught
 * hooks, with their channels' counters and their first handler attempts, in one transaction, then
 * acknowledges it. SQLite's work then runs on another core than HTTP. Messages: "open" once,
 * "batch" (answered by "done" with the same seq), "close" (answered by "closed").
 */
import { openDatabase, type Db } from "../db/open";
import { createAttemptQueue, queueCaughtHooks, type AttemptQueue } from "../runner/queue";
import { createHookStore, type HookStore, type NewHook } from "./store";

declare const self: Worker;

export type ToThread =
  | { type: "open"; path: string; durability: "full" | "normal"; handlers: Record<string, string[]> }
  | { type: "batch"; seq: number; hooks: NewHook[]; guardsOfNew: Record<string, string[]>; now: number }
  | { type: "close" };

export type FromThread =
  | { type: "done"; seq: number; error?: string }
  | { type: "fatal"; error: string }
  | { type: "closed" };

let db: Db | undefined;
let store: HookStore | undefined;
let queue: AttemptQueue | undefined;
let handlers = new Map<string, string[]>();
const post = (message: FromThread) => self.postMessage(message);

self.onmessage = (event: MessageEvent<ToThread>) => {
  const m = event.data;
  if (m.type === "open") {
    try {
      // The main thread applied the migrations before starting this thread.
      db = openDatabase({ path: m.path, durability: m.durability, migrate: false });
      store = createHookStore(db);
      queue = createAttemptQueue(db);
      handlers = new Map(Object.entries(m.handlers));
    } catch (error) {
      post({ type: "fatal", error: String(error) });
    }
  } else if (m.type === "batch") {
    try {
      if (!store || !queue) throw new Error("the commit thread has no database");
      const [s, q] = [store, queue];
      s.transaction(() => {
        s.insertHooks(m.hooks, (channel) => m.guardsOfNew[channel] ?? []);
        queueCaughtHooks(q, (channel) => handlers.get(channel), m.hooks, m.now);
      });
      post({ type: "done", seq: m.seq });
    } catch (error) {
      post({ type: "done", seq: m.seq, error: String(error) });
    }
  } else {
    db?.$client.close();
    db = store = queue = undefined;
    post({ type: "closed" });
  }
};
