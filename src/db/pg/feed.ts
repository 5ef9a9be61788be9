import type { SQL } from "bun";
import type { ChangeFeed } from "../feed";
import type { Log } from "../../lib/log";

/** The LISTEN channel every instance of one database shares. */
export const FEED_CHANNEL = "mailroom_changes";
/** NOTIFY payloads must stay under 8000 bytes; a longer key is split over several notifications. */
const MAX_KEY = 7000;

/**
 * The change feed over LISTEN/NOTIFY. Each notification is `instance \n topic \n key`; an
 * instance ignores its own. Bun's client keeps the LISTEN connection, reconnects and listens again
 * after a loss; notifications sent meanwhile are lost, so each time the LISTEN is back after the
 * first, subscribers get a resync (topic null). Resolves once this instance listens.
 */
export async function pgFeed(sql: SQL, instance: string, log: Log): Promise<ChangeFeed> {
  const subscribers: ((topic: string | null, key: string) => void)[] = [];
  const deliver = (topic: string | null, key: string) => {
    for (const fn of subscribers) {
      try {
        fn(topic, key);
      } catch (error) {
        log.error("change feed subscriber failed", { topic: topic ?? "resync", error: String((error as Error)?.stack ?? error) });
      }
    }
  };
  let listened = 0;
  let queued: [string, string][] = [];
  let sending: Promise<void> | undefined;

  /**
   * Sends what was published, one notification after another (in order; the pool would otherwise
   * use several connections). What is published while one is on its way waits and goes out merged:
   * the keys of one list topic ("caught", "hook") joined, a repeated change sent once. Under load,
   * one notification carries many batches.
   */
  async function drain(): Promise<void> {
    while (queued.length > 0) {
      const batch = queued;
      queued = [];
      for (const [topic, key] of merge(batch)) {
        for (const part of key.length <= MAX_KEY ? [key] : splitKey(key)) {
          try {
            await sql.notify(FEED_CHANNEL, `${instance}\n${topic}\n${part}`);
          } catch (error) {
            log.warn("change feed: publish failed", { topic, error: String(error) });
          }
        }
      }
    }
  }
  const subscription = await sql.listen(
    FEED_CHANNEL,
    (payload) => {
      const [from, topic, ...rest] = payload.split("\n");
      if (from === instance || !topic) return;
      deliver(topic, rest.join("\n"));
    },
    () => {
      if (listened++ > 0) {
        log.warn("change feed: listening again after a lost connection; re-reading shared state");
        deliver(null, "");
      }
    },
  );
  return {
    instance,
    publish(topic, key = "") {
      queued.push([topic, key]);
      if (!sending) sending = drain().finally(() => (sending = undefined));
    },
    subscribe(fn) {
      subscribers.push(fn);
    },
    async close() {
      await subscription.unlisten().catch(() => {});
    },
  };
}

/** Topics whose keys are comma-separated lists that may be joined. */
const LISTS = new Set(["caught", "hook"]);

/** Publications in order, list topics joined into the first of their kind, repeats dropped. */
function merge(batch: [string, string][]): [string, string][] {
  const out: [string, string][] = [];
  const lists = new Map<string, string[]>();
  const seen = new Set<string>();
  for (const [topic, key] of batch) {
    if (LISTS.has(topic)) {
      let keys = lists.get(topic);
      if (!keys) lists.set(topic, (keys = [])), out.push([topic, ""]);
      keys.push(key);
    } else if (!seen.has(`${topic}\n${key}`)) {
      seen.add(`${topic}\n${key}`);
      out.push([topic, key]);
    }
  }
  return out.map(([topic, key]) => [topic, LISTS.has(topic) ? lists.get(topic)!.join(",") : key]);
}

/** A comma-separated list cut into parts under MAX_KEY at commas. */
function splitKey(key: string): string[] {
  const parts: string[] = [];
  let rest = key;
  while (rest.length > MAX_KEY) {
    const cut = rest.lastIndexOf(",", MAX_KEY);
    const at = cut > 0 ? cut : MAX_KEY;
    parts.push(rest.slice(0, at));
    rest = rest.slice(at + 1);
  }
  if (rest) parts.push(rest);
  return parts;
}
