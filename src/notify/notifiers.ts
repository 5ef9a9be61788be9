import type { NOTIFIER_KINDS } from "../config/notifiers";
import type { NotifierConfig } from "../config/schema";
import { backoffDelay } from "../lib/backoff";
import { type Clock, systemClock, toRfc3339 } from "../lib/clock";
import { createIdFactory } from "../lib/ids";
import type { Log } from "../lib/log";
import type { Worker } from "../lib/worker";
import type { IssueNotice, Notify } from "./notice";
import { maskedMessage, notifierTarget, secretsOf, sender } from "./senders";
import type { NoticeStore } from "./store";

/**
 * The notifiers, over the outbox (store.ts): `queue` writes an issue event's notices in that
 * event's transaction and returns; the instance holding the rules' lease sends them (`start`,
 * called by the rules' worker: at least every second, and at once when an issue event commits).
 * Each notifier sends its notices in order, one at a time: a notice that fails waits for its retry
 * (backoff, by the clock) and holds the ones after it; after ATTEMPTS sends it is given up
 * (logged). A notifier holds at most QUEUE_LIMIT queued notices: a new one drops the oldest not
 * yet tried (logged). The counts and the last error are the outbox's: every instance answers the same.
 */
export const QUEUE_LIMIT = 100;
export const ATTEMPTS = 5;
/**
 * How long one send may take in all before it counts as failed and is tried again. An HTTP send
 * ends within TIMEOUT_MS; an SMTP send takes about ten steps (connection, greeting, EHLO, TLS,
 * AUTH, MAIL, RCPT, DATA, the message, QUIT), each of up to TIMEOUT_MS: a slow server that answers
 * each step within its timeout still finishes before this, so its mail is not sent twice.
 */
export const SEND_DEADLINE_MS = 110_000;
/**
 * How long a send holds its notice (the claim): past it, the notice is due again and whoever holds
 * the lease then sends it again. Longer than any send: only a send whose instance stopped lapses.
 */
export const CLAIM_MS = 120_000;
/** How long sent and given-up notices are kept before they are pruned. */
export const KEEP_DONE_MS = 3_600_000;

export type NotifierStatus = {
  name: string;
  kind: (typeof NOTIFIER_KINDS)[number];
  /** Where it sends, without secrets: an incoming webhook's origin (its path is its secret), an SMTP server and the recipients. */
  target: string;
  queued: number;
  sent: number;
  failed: number;
  last_error: string | null;
  last_error_at: string | null;
};

export type Notifiers = Notify & {
  /** The configured notifiers' names, in config order. */
  names(): string[];
  /** Each configured notifier with the outbox's counts. Throws the database's error. */
  status(): Promise<NotifierStatus[]>;
  /** Sends one notice now (for "send a test"), not queued and with no retries; resolves to the error or null. */
  test(name: string, notice: IssueNotice): Promise<string | null>;
  /**
   * Starts sending what is due at `now` (each notifier's oldest notice, one send at a time per
   * notifier) and returns without waiting for the sends; resolves to the earliest time a notice
   * of a notifier not sending now waits for, or null (the caller comes back within a second
   * anyway). Only the rules' lease holder calls it.
   */
  start(now: number): Promise<number | null>;
  /** Resolves when no send that `start` began is running (tests). */
  idle(): Promise<void>;
  /**
   * A stop: `start` begins no send from now on, and this waits for those running, at most `ms`. A
   * send cut off by the stop stays claimed and is sent again once its claim lapses (at least once).
   */
  stop(ms: number): Promise<void>;
  /** `start`, then waits for its sends: resolves to when the next notice is due, null when none waits (tests drive it with a fake clock). */
  worker: Worker;
};

type Options = {
  log: Log;
  store: NoticeStore;
  /** When notices are due (the app's clock; tests pass a fake one). */
  clock?: Clock;
  backoff?: { initial: number; max: number };
  random?: () => number;
  newId?: () => string;
  /** Extra trusted CA (PEM) for SMTP TLS: tests pass their self-signed certificate. */
  smtpCa?: string;
};

/** `work`, or a rejection once `ms` have passed without it settling. */
function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms / 1000} s`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

export function createNotifiers(configs: readonly NotifierConfig[], opts: Options): Notifiers {
  const { store, log } = opts;
  const clock = opts.clock ?? systemClock;
  const policy = opts.backoff ?? { initial: 1000, max: 60_000 };
  const random = opts.random ?? Math.random;
  const newId = opts.newId ?? createIdFactory(clock);
  const entries = new Map(
    configs.map((c) => [
      c.name,
      {
        config: c,
        send: sender(c, { now: () => clock.now(), smtpCa: opts.smtpCa }),
        secrets: secretsOf(c),
        /** The drain under way, if any; and when its notifier's next notice is due, as it last saw (null: none queued). */
        running: null as Promise<void> | null,
        nextDue: null as number | null,
      },
    ]),
  );
  type Entry = NonNullable<ReturnType<typeof entries.get>>;
  let prunedAt = Number.NEGATIVE_INFINITY;
  let stopped = false;

  /** Sends the notifier's due notices in order; resolves to when its next one is due (null: none queued). Throws the database's error. */
  async function drain(e: Entry, now: number): Promise<number | null> {
    const notifier = e.config.name;
    for (;;) {
      // Stopping: the send under way ends, no other begins (what is queued waits for the next start).
      if (stopped) return null;
      const head = await store.next(notifier);
      if (!head) return null;
      const at = Math.max(now, clock.now());
      if (head.nextAttemptAt > at) return head.nextAttemptAt;
      if (head.attempts >= ATTEMPTS) {
        // Its last send was claimed and never reported: the instance sending it stopped.
        const error = head.lastError ?? "its last send was interrupted";
        if (await store.failed(head.id, head.attempts, error, at, null)) log.warn("notifier failed", { notifier, error });
        continue;
      }
      // Lost to another instance (an instance that held the lease before): looked at again in a second.
      if (!(await store.claim(head.id, head.attempts, at, at + CLAIM_MS))) return at + 1000;
      const attempt = head.attempts + 1;
      let failure: string | undefined;
      try {
        await withDeadline(e.send(head.notice, head.id), SEND_DEADLINE_MS);
      } catch (error) {
        failure = maskedMessage(error, e.secrets);
      }
      const done = clock.now();
      if (failure === undefined) {
        if (!(await store.sent(head.id, attempt, done))) log.warn("a notice was sent after its claim lapsed", { notifier });
        continue;
      }
      const givenUp = attempt >= ATTEMPTS;
      await store.failed(head.id, attempt, failure, done, givenUp ? null : done + backoffDelay(attempt, policy, random));
      if (givenUp) log.warn("notifier failed", { notifier, error: failure });
    }
  }

  const waiters: (() => void)[] = [];
  const busy = () => [...entries.values()].some((e) => e.running);
  /**
   * When the next notice is due, of the notifiers not sending now: a running drain's last answer is
   * stale (the worker, called back at a past time, would spin while the send waits for its answer).
   */
  const earliest = () => {
    const due = [...entries.values()].flatMap((e) => (e.running || e.nextDue === null ? [] : [e.nextDue]));
    return due.length > 0 ? Math.min(...due) : null;
  };

  function run(e: Entry, now: number): Promise<void> {
    return (async () => {
      try {
        e.nextDue = await drain(e, now);
      } catch (error) {
        log.error("notices could not be sent", { notifier: e.config.name, error: String(error) });
        e.nextDue = now + 1000;
      } finally {
        e.running = null;
        if (!busy()) for (const w of waiters.splice(0)) w();
      }
    })();
  }

  async function start(now: number): Promise<number | null> {
    if (stopped) return null;
    if (now - prunedAt >= 60_000) {
      prunedAt = now;
      await store.prune(now - KEEP_DONE_MS).catch((error) => log.error("sent notices could not be pruned", { error: String(error) }));
    }
    for (const e of entries.values()) if (!e.running) e.running = run(e, now);
    return earliest();
  }

  const idle = () => (busy() ? new Promise<void>((r) => waiters.push(r)) : Promise.resolve());
  async function stop(ms: number): Promise<void> {
    stopped = true;
    await withDeadline(idle(), ms).catch(() => undefined);
  }

  return {
    async queue(names, notice) {
      const at = clock.now();
      const rows = [...new Set(names)].filter((name) => entries.has(name)).map((notifier) => ({ id: newId(), notifier, notice, at }));
      if (rows.length === 0) return;
      for (const d of await store.add(rows, QUEUE_LIMIT)) log.warn("notifier queue full: oldest notice dropped", { notifier: d.notifier });
    },
    names: () => [...entries.keys()],
    async status() {
      const counts = await store.counts();
      return [...entries.values()].map(({ config }) => {
        const c = counts.get(config.name);
        return {
          name: config.name,
          kind: config.kind as NotifierStatus["kind"],
          target: notifierTarget(config),
          queued: c?.queued ?? 0,
          sent: c?.sent ?? 0,
          failed: c?.failed ?? 0,
          last_error: c?.lastError ?? null,
          last_error_at: c?.lastErrorAt == null ? null : toRfc3339(c.lastErrorAt),
        };
      });
    },
    async test(name, notice) {
      const e = entries.get(name);
      if (!e) return "no such notifier";
      try {
        await withDeadline(e.send(notice, newId()), SEND_DEADLINE_MS);
        return null;
      } catch (error) {
        const message = maskedMessage(error, e.secrets);
        await store.lastError(name, message, clock.now()).catch((err) => log.error("a notifier's error could not be kept", { error: String(err) }));
        return message;
      }
    },
    start,
    idle,
    stop,
    worker: {
      name: "notifiers",
      async tick(now) {
        await start(now);
        await idle();
        return earliest();
      },
    },
  };
}
