import nodemailer from "nodemailer";
import type { NotifierConfig } from "../config/schema";
import { discordMessage, emailMessage, slackMessage, standardWebhookHeaders, teamsMessage } from "./messages";
import type { IssueNotice } from "./notice";

/** How long one HTTP request or SMTP step (connection, greeting, each socket wait) may take. */
export const TIMEOUT_MS = 10_000;

export type SenderOptions = {
  /** The signed time of a generic webhook (the app's clock). */
  now: () => number;
  /** Extra trusted CA (PEM) for SMTP TLS: tests pass their self-signed certificate. */
  smtpCa?: string;
};

/**
 * Sends one notice once, to one notifier; rejects with the reason it was not delivered (the
 * receiver's HTTP status, the SMTP error). `id` names the notice (the outbox row's): a generic
 * webhook signs it as its `webhook-id`, the same on each retry, so that a receiver can drop a repeat.
 */
export type Send = (notice: IssueNotice, id: string) => Promise<void>;

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

/** The sender of a notifier's kind: each service's documented message (messages.ts). */
export function sender(n: NotifierConfig, opts: SenderOptions): Send {
  const url = n.url ?? "";
  switch (n.kind) {
    case "slack":
      return (notice) => post(url, JSON.stringify(slackMessage(notice)));
    case "discord":
      return (notice) => post(url, JSON.stringify(discordMessage(notice)));
    case "teams":
      return (notice) => post(url, JSON.stringify(teamsMessage(notice)));
    case "webhook":
      return (notice, id) => {
        const body = JSON.stringify(notice);
        return post(url, body, standardWebhookHeaders(n.secret ?? "", `msg_${id}`, Math.floor(opts.now() / 1000), body));
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
      return async (notice, id) => {
        const m = emailMessage(notice);
        // The notice's id as the Message-ID: the same on every try, so a repeat can be told apart.
        await transport.sendMail({ from: n.from, to: n.to, subject: m.subject, text: m.text, html: m.html, messageId: `<${id}@mailroom>` });
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
export function secretsOf(n: NotifierConfig): string[] {
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

/** An error's message with each secret masked (a library's error may quote the URL or the SMTP login), at most 300 characters. */
export function maskedMessage(error: unknown, secrets: readonly string[] = []): string {
  let text = error instanceof Error ? error.message : String(error);
  for (const s of secrets) text = text.split(s).join("[secret]");
  return text.slice(0, 300);
}
