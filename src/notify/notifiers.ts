import nodemailer from "nodemailer";
import type { NOTIFIER_KINDS } from "../config/notifiers";
import type { NotifierConfig } from "../config/schema";
import { backoffDelay } from "../lib/backoff";
import type { Clock } from "../lib/clock";
import type { Log } from "../lib/log";
import type { Worker } from "../lib/worker";
import { discordMessage, emailMessage, slackMessage, standardWebhookHeaders, teamsMessage } from "./messages";
import type { IssueNotice, Notify } from "./notice";

/**
 * The notifiers: one bounded queue per notifier, each send with a timeout; `send` returns at once
 * and never throws, so catching never waits. A notice that fails waits for its retry (backoff, by
 * the clock) and holds its queue; `worker` sends what is due again (the runner drives it: at the
 * time it returns, and at least every second; tests call its tick with a fake clock). A full queue
 * drops the oldest notice (logged); each notifier keeps its last error for the API.
 */
export const QUEUE_LIMIT = 100;
export const ATTEMPTS = 5;
export const TIMEOUT_MS = 10_000;

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
  status(): NotifierStatus[];
  /** Sends one notice now (for "send a test"), with no retries; resolves to the error or null. */
  test(name: string, notice: IssueNotice): Promise<string | null>;
  /** Resolves when no send is running and none is due: every queue empty or waiting for a retry (tests). */
  idle(): Promise<void>;
  /** Sends the retries that are due; resolves to the time of the next one, null when none waits. */
  worker: Worker;
};

type Options = {
  log: Log;
  /** When retries are due (the app's clock; tests pass a fake one). */
  clock?: Clock;
  backoff?: { initial: number; max: number };
  random?: () => number;
  newId?: () => string;
  /** Extra trusted CA (PEM) for SMTP TLS: tests pass their self-signed certificate. */
  smtpCa?: string;
};

async function post(url: string, body: string, headers: Record<string, string> = {}): Promise<void> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body,
    signal: AbortSignal.timeout(TIMEOUT_MS),
    redirect: "error",
  });
  await response.arrayBuffer().catch(() => undefined);
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
}

function sender(n: NotifierConfig, opts: Options): (notice: IssueNotice) => Promise<void> {
  const url = n.url ?? "";
  switch (n.kind) {
    case "slack":
      return (notice) => post(url, JSON.stringify(slackMessage(notice)));
    case "discord":
      return (notice) => post(url, JSON.stringify(discordMessage(notice)));
    case "teams":
      return (notice) => post(url, JSON.stringify(teamsMessage(notice)));
    case "webhook":
      return (notice) => {
        const body = JSON.stringify(notice);
        const id = `msg_${opts.newId ? opts.newId() : crypto.randomUUID()}`;
        const seconds = Math.floor((opts.clock?.now() ?? Date.now()) / 1000);
        return post(url, body, standardWebhookHeaders(n.secret ?? "", id, seconds, body));
      };
    default: {
      const tls = n.tls ?? "starttls";
      const transport = nodemailer.createTransport({
        host: n.host,
        port: n.port ?? (tls === "tls" ? 465 : tls === "starttls" ? 587 : 25),
        secure: tls === "tls",
        requireTLS: tls === "starttls",
        ignoreTLS: tls === "none",
        auth: n.user ? { user: n.user, pass: n.password ?? "" } : undefined,
        connectionTimeout: TIMEOUT_MS,
        greetingTimeout: TIMEOUT_MS,
        socketTimeout: TIMEOUT_MS,
        tls: opts.smtpCa ? { ca: opts.smtpCa } : undefined,
      });
      return async (notice) => {
        const m = emailMessage(notice);
        await transport.sendMail({ from: n.from, to: n.to, subject: m.subject, text: m.text, html: m.html });
      };
    }
  }
}

/** Where a notifier sends, as the API and the dashboard show it: never a URL's path or query, a secret or a password. */
export function notifierTarget(n: NotifierConfig): string {
  if (n.kind !== "email") {
    try {
      return `${new URL(n.url ?? "").origin}/…`;
    } catch {
      return "(no URL)";
    }
  }
  const tls = n.tls ?? "starttls";
  const port = n.port ?? (tls === "tls" ? 465 : tls === "starttls" ? 587 : 25);
  return `smtp ${n.host}:${port} (${tls}) to ${(n.to ?? []).join(", ")}`;
}

/** The strings of a notifier's config that must never be shown (its URL, secret, password), longest first. */
function secretsOf(n: NotifierConfig): string[] {
  const out = new Set<string>();
  for (const s of [n.url, n.secret, n.password]) if (s) out.add(s);
  if (n.url) {
    try {
      const u = new URL(n.url);
      for (const s of [u.pathname, u.search, u.username, u.password, decodeURIComponent(u.pathname)]) if (s.length > 1) out.add(s);
    } catch {}
  }
  return [...out].sort((a, b) => b.length - a.length);
}

export function createNotifiers(configs: readonly NotifierConfig[], opts: Options): Notifiers {
  const now = () => (opts.clock ?? { now: Date.now }).now();
  const policy = opts.backoff ?? { initial: 1000, max: 60_000 };
  const random = opts.random ?? Math.random;
  const entries = new Map(
    configs.map((c) => [
      c.name,
      {
        config: c,
        send: sender(c, opts),
        queue: [] as IssueNotice[],
        running: false,
        /** Failed tries of the queue's first notice, and when it is tried again (null: now). */
        tries: 0,
        retryAt: null as number | null,
        secrets: secretsOf(c),
        status: {
          name: c.name,
          kind: c.kind as NotifierStatus["kind"],
          target: notifierTarget(c),
          queued: 0,
          sent: 0,
          failed: 0,
          last_error: null,
          last_error_at: null,
        } as NotifierStatus,
      },
    ]),
  );
  let waiters: (() => void)[] = [];
  type Entry = NonNullable<ReturnType<typeof entries.get>>;
  const due = (e: Entry, at: number) => !e.running && e.queue.length > 0 && (e.retryAt === null || e.retryAt <= at);
  const busy = () => [...entries.values()].some((e) => e.running || due(e, now()));
  const settle = () => {
    if (busy()) return;
    const w = waiters;
    waiters = [];
    for (const f of w) f();
  };
  // A library's error may quote what it was given (the URL, the SMTP login): each secret is masked.
  const message = (error: unknown, secrets: readonly string[] = []) => {
    let text = error instanceof Error ? error.message : String(error);
    for (const s of secrets) text = text.split(s).join("[secret]");
    return text.slice(0, 300);
  };

  /** The queue's first notice is done with (sent, or given up): the next one is tried at once. */
  function next(e: Entry): void {
    e.queue.shift();
    e.tries = 0;
    e.retryAt = null;
    e.status.queued = e.queue.length;
  }

  /** Sends the queue in order until it is empty or its first notice waits for a retry. */
  async function drain(e: Entry) {
    e.running = true;
    try {
      while (e.queue.length > 0 && (e.retryAt === null || e.retryAt <= now())) {
        try {
          await e.send(e.queue[0] as IssueNotice);
          e.status.sent++;
          next(e);
        } catch (error) {
          e.status.last_error = message(error, e.secrets);
          e.status.last_error_at = new Date(now()).toISOString();
          e.tries++;
          if (e.tries >= ATTEMPTS) {
            e.status.failed++;
            opts.log.warn("notifier failed", { notifier: e.config.name, error: e.status.last_error });
            next(e);
          } else e.retryAt = now() + backoffDelay(e.tries, policy, random);
        }
      }
    } finally {
      e.running = false;
      settle();
    }
  }

  return {
    send(names, notice) {
      try {
        for (const name of names) {
          const e = entries.get(name);
          if (!e) continue;
          if (e.queue.length >= QUEUE_LIMIT) {
            // Not the one being sent or waiting for its retry: the oldest after it.
            e.queue.splice(e.running || e.retryAt !== null ? 1 : 0, 1);
            opts.log.warn("notifier queue full: oldest notice dropped", { notifier: name });
          }
          e.queue.push(notice);
          e.status.queued = e.queue.length;
          if (due(e, now())) void drain(e);
        }
      } catch (error) {
        opts.log.error("notify failed", { error: message(error) });
      }
    },
    status: () => [...entries.values()].map((e) => ({ ...e.status })),
    async test(name, notice) {
      const e = entries.get(name);
      if (!e) return "no such notifier";
      try {
        await e.send(notice);
        return null;
      } catch (error) {
        e.status.last_error = message(error, e.secrets);
        e.status.last_error_at = new Date(now()).toISOString();
        return e.status.last_error;
      }
    },
    idle: () => (busy() ? new Promise<void>((r) => waiters.push(r)) : Promise.resolve()),
    worker: {
      name: "notifiers",
      async tick(at) {
        await Promise.all([...entries.values()].filter((e) => due(e, at)).map(drain));
        const waiting = [...entries.values()].flatMap((e) => (e.queue.length > 0 && e.retryAt !== null ? [e.retryAt] : []));
        return waiting.length > 0 ? Math.min(...waiting) : null;
      },
    },
  };
}
