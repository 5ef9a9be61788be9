import { Elysia, t } from "elysia";
import { ErrorBody, NoBody, NoQuery } from "../hooks/model";
import type { ManagementDeps } from "../hooks/routes/deps";
import { notFound } from "../lib/errors";
import type { IssueNotice } from "./notice";
import type { NotifierStatus } from "./notifiers";

const strict = { additionalProperties: false } as const;

/** What the notifier routes read: the configured notifiers' state, and a test send. */
export type NotifierControls = {
  names(): string[];
  /** Each notifier with the outbox's counts: the same on every instance. */
  status(): Promise<NotifierStatus[]>;
  /** Sends one notice now, without retries; resolves to the error, or null when it was sent. */
  test(name: string, notice: IssueNotice): Promise<string | null>;
};

export const Notifier = t.Object(
  {
    name: t.String(),
    kind: t.Union([t.Literal("slack"), t.Literal("discord"), t.Literal("teams"), t.Literal("webhook"), t.Literal("email")]),
    target: t.String({
      description: "where it sends, without secrets: an incoming webhook's origin (its path is a secret), or the SMTP server and recipients",
    }),
    queued: t.Integer({ minimum: 0, description: "notices waiting to be sent (the outbox: the same on every instance)" }),
    sent: t.Integer({ minimum: 0 }),
    failed: t.Integer({ minimum: 0, description: "notices given up after every retry" }),
    last_error: t.Union([t.String(), t.Null()], { description: "the last failure's message, secrets masked" }),
    last_error_at: t.Union([t.String({ description: "RFC 3339" }), t.Null()]),
  },
  strict,
);

const TestResult = t.Object(
  {
    name: t.String(),
    sent: t.Boolean(),
    error: t.Union([t.String(), t.Null()], { description: "why it was not sent (secrets masked); null when sent" }),
  },
  strict,
);

const params = t.Object({ name: t.String({ maxLength: 64, error: "name: must be a notifier's name" }) }, strict);

/** The notice a test sends: an issue that is not one, said so in its summary. */
export function testNotice(name: string, at: Date, url: string | null): IssueNotice {
  const when = at.toISOString();
  return {
    event: "test",
    issue: {
      id: "00000000000000000000000000",
      rule: "test",
      kind: "silence",
      scope: name,
      summary: `A test from Mailroom's notifier "${name}": notices reach you here.`,
      state: "open",
      opened_at: when,
      last_seen_at: when,
      resolved_at: null,
      count: 1,
      hooks_query: null,
    },
    url,
  };
}

/**
 * GET /notifiers and POST /notifiers/{name}/test: the `[[notifiers]]` of alerts (notify/), for admins
 * (`admin`, else `auth`: an API key with full access). No answer carries a URL's path, a secret or a password.
 */
export function notifierRoutes({
  auth,
  admin,
  notifiers,
  now,
  publicUrl,
}: Pick<ManagementDeps, "auth" | "admin"> & { notifiers: NotifierControls; now: () => number; publicUrl?: string }) {
  return new Elysia()
    .use(admin ?? auth)
    .get("/notifiers", () => notifiers.status(), { query: NoQuery, response: { 200: t.Array(Notifier), 401: ErrorBody, 403: ErrorBody } })
    .post(
      "/notifiers/:name/test",
      async ({ params }) => {
        if (!notifiers.names().includes(params.name)) throw notFound(`notifier "${params.name}" not found`);
        const error = await notifiers.test(params.name, testNotice(params.name, new Date(now()), publicUrl ? `${publicUrl}/ui/notifiers` : null));
        return { name: params.name, sent: error === null, error };
      },
      { params, query: NoQuery, body: NoBody, response: { 200: TestResult, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody } },
    );
}
