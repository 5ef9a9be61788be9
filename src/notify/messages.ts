import { createHmac } from "node:crypto";
import type { IssueNotice } from "./notice";

/**
 * Each service's documented message for a notice: pure functions, so tests can check the shapes
 * and the sender stays small. Hook data (rule names, scopes, summaries) is hostile: Discord gets no
 * mentions, Slack's mrkdwn and HTML are escaped.
 */
const title = (n: IssueNotice) => `[Mailroom] ${n.event}: ${n.issue.rule} on ${n.issue.scope}`;
const lines = (n: IssueNotice) => [
  `${n.issue.summary}`,
  `state: ${n.issue.state}, seen ${n.issue.count} time(s) since ${n.issue.opened_at}`,
  ...(n.url ? [n.url] : []),
];

const slackEscape = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** Slack incoming webhook: Block Kit blocks and a `text` fallback for notifications. */
export function slackMessage(n: IssueNotice) {
  const link = n.url ? ` <${slackEscape(n.url)}|open the issue>` : "";
  return {
    text: slackEscape(`${title(n)}: ${n.issue.summary}`),
    blocks: [
      { type: "header", text: { type: "plain_text", text: title(n).slice(0, 150) } },
      { type: "section", text: { type: "mrkdwn", text: slackEscape(n.issue.summary) + link } },
      {
        type: "context",
        elements: [{ type: "mrkdwn", text: slackEscape(`${n.issue.kind} · ${n.issue.state} · ${n.issue.count}× since ${n.issue.opened_at}`) }],
      },
    ],
  };
}

/** Discord webhook: `content` (at most 2000 characters) and no mentions parsed. */
export function discordMessage(n: IssueNotice) {
  return { content: [`**${title(n)}**`, ...lines(n)].join("\n").slice(0, 2000), allowed_mentions: { parse: [] } };
}

/** Microsoft Teams Workflows webhook: a message with one Adaptive Card attachment. */
export function teamsMessage(n: IssueNotice) {
  return {
    type: "message",
    attachments: [
      {
        contentType: "application/vnd.microsoft.card.adaptive",
        contentUrl: null,
        content: {
          $schema: "http://adaptivecards.io/schemas/adaptive-card.json",
          type: "AdaptiveCard",
          version: "1.4",
          body: [
            { type: "TextBlock", text: title(n), weight: "Bolder", size: "Medium", wrap: true },
            { type: "TextBlock", text: n.issue.summary, wrap: true },
            {
              type: "FactSet",
              facts: [
                { title: "State", value: n.issue.state },
                { title: "Kind", value: n.issue.kind },
                { title: "Count", value: String(n.issue.count) },
                { title: "Since", value: n.issue.opened_at },
              ],
            },
          ],
          ...(n.url ? { actions: [{ type: "Action.OpenUrl", title: "Open the issue", url: n.url }] } : {}),
        },
      },
    ],
  };
}

/** Standard Webhooks headers for `body`: HMAC-SHA256 over "id.timestamp.body" with the whsec_ key. */
export function standardWebhookHeaders(secret: string, id: string, timestampSeconds: number, body: string): Record<string, string> {
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  const signature = createHmac("sha256", key).update(`${id}.${timestampSeconds}.${body}`).digest("base64");
  return { "webhook-id": id, "webhook-timestamp": String(timestampSeconds), "webhook-signature": `v1,${signature}` };
}

const html = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");

/** The e-mail: subject, text and escaped HTML. Header injection: newlines in the subject become spaces. */
export function emailMessage(n: IssueNotice) {
  const subject = title(n).replace(/[\r\n]+/g, " ");
  const text = lines(n).join("\n");
  const link = n.url ? `<p><a href="${html(n.url)}">Open the issue</a></p>` : "";
  const body = `<h2>${html(title(n))}</h2><p>${html(n.issue.summary)}</p><p>state: ${html(n.issue.state)}, seen ${n.issue.count} time(s) since ${html(n.issue.opened_at)}</p>${link}`;
  return { subject, text, html: body };
}
