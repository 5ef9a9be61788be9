import { t } from "elysia";
import { MANAGEMENT_MAX_BODY } from "../hooks/auth";
import { STATUS } from "../hooks/errors";
import { Channel, ChannelName, ChannelStats, Empty, ErrorBody, Event, Hook, HookExtended, HookId, HookSummary } from "../hooks/model";
import { Attempt } from "../runner/routes";
import { Refusal } from "../hooks/routes/refusals";
import { ImportReport } from "../transfer/routes";
import { ReplayAnswer } from "../transfer/send-routes";
import { FixtureFile } from "../fixtures/routes";
import { ExportedHook } from "../transfer/wire";
import { ChannelDedup } from "../dedup/routes";
import { ChannelResponse } from "../responses/routes";
import { HandlerInfo } from "../delivery/handler-routes";
import { BulkJob } from "../bulk/routes";
import { View } from "../views/routes";
import { apiOf } from "../translate/gate";
import type { DocumentDef, ErrorStatus, Operation } from "./generate";

/** What the catching endpoint answers a sender whose hook was stored. */
export const CaughtHook = t.Object({ id: HookId }, { additionalProperties: false });

const GRPC_NAMES: Record<number, string> = {
  3: "INVALID_ARGUMENT",
  5: "NOT_FOUND",
  7: "PERMISSION_DENIED",
  8: "RESOURCE_EXHAUSTED",
  9: "FAILED_PRECONDITION",
  12: "UNIMPLEMENTED",
  13: "INTERNAL",
  14: "UNAVAILABLE",
  16: "UNAUTHENTICATED",
};

const WHEN: Record<number, [string, Record<string, string>?]> = {
  400: ["Malformed JSON, wrong types, unknown fields or query parameters, bad names or ids; the message names each bad field."],
  401: ["Missing or wrong token (catching: a guard refused the signature, credential or token).", { "WWW-Authenticate": "the scheme to use" }],
  403: ["Catching: a guard refused the sender's ip."],
  404: ["Unknown channel, hook or route."],
  405: ["A method the path does not have (catching: a guard refused the method).", { Allow: "the methods the path has" }],
  409: ["The transition is not allowed from the hook's status; process and fail on a channel with handlers."],
  413: [
    `The body is over the limit: ${MANAGEMENT_MAX_BODY / 1024} KiB for the management API, also on a POST or DELETE that takes no body ` +
      "(its body is still read); catching: [hooks] max_body or a size guard.",
  ],
  415: [
    "A non-empty management body that is not JSON, also on a POST or DELETE that takes no body (an empty body or `{}` is fine there); " +
      "catching: a guard refused the media type.",
  ],
  500: ["Unexpected; the message carries only a request id."],
  503: ["The channel is paused; send again later.", { "Retry-After": "seconds to wait" }],
};

function errorStatuses(): Record<number, ErrorStatus> {
  const out: Record<number, ErrorStatus> = {};
  for (const { http, grpc } of Object.values(STATUS)) {
    const when = WHEN[http];
    if (!when) continue;
    out[http] = {
      description: `${when[0]} Code ${grpc} (${GRPC_NAMES[grpc]}).`,
      schema: { $ref: "#/components/schemas/Error", type: "object", properties: { code: { const: grpc } } },
      headers: when[1],
    };
  }
  return out;
}

const transition = (id: string, verb: string, what: string): Operation => ({ operationId: id, summary: `${verb} a hook`, description: what });

const operations: Record<string, Operation> = {
  "ALL /": {
    operationId: "CatchService_CatchHook",
    method: "POST",
    summary: "Catch a hook",
    description:
      "Stores the request as a hook of the channel, byte for byte, and answers once it is committed. GET (with a query string), " +
      "PUT, PATCH and DELETE are caught the same way; OPTIONS answers a CORS preflight; a plain GET / shows a page. " +
      "The channel is created by its first hook. Needs no token: the channel's guards (signatures, credentials, ips, " +
      "methods, media types, body size) decide, and answer 401, 403, 405, 413 or 415 naming the guard.",
    security: "none",
    query: { channel: t.Optional(t.String({ ...ChannelName, description: "the channel; `default` when absent" })) },
    body: { required: false, description: "any body, kept exactly as received", content: { "*/*": { schema: {} } } },
    success: {
      status: 200,
      description: "The hook is stored (with durability full, on disk).",
      schema: CaughtHook,
      headers: { "Access-Control-Allow-Origin": { schema: { type: "string", const: "*" } } },
    },
    errors: [400, 401, 403, 405, 413, 415, 503],
  },
  "GET /v1/channels": { operationId: "ChannelService_ListChannels", summary: "List channels", description: "All channels, sorted by name, with their stats." },
  "GET /v1/channels/:name": { operationId: "ChannelService_GetChannel", summary: "Get a channel" },
  "DELETE /v1/channels/:name": {
    operationId: "ChannelService_DeleteChannel",
    summary: "Delete a channel",
    description:
      "Deletes the channel and all its hooks, their events and attempts; answers once they are gone. A channel of the config file exists again at once.",
  },
  "POST /v1/channels/:name/pause": {
    operationId: "ChannelService_PauseChannel",
    summary: "Pause a channel",
    description: "Senders get 503 until it is resumed. Idempotent.",
  },
  "POST /v1/channels/:name/resume": { operationId: "ChannelService_ResumeChannel", summary: "Resume a channel", description: "Idempotent." },
  "GET /v1/channels/:name/response": {
    operationId: "ChannelService_GetResponse",
    summary: "Get a channel's custom response",
    description: "Mailroom's extension: what senders of the channel receive (source `default`, `config` or `api`) and how many requests it answered.",
  },
  "PUT /v1/channels/:name/response": {
    operationId: "ChannelService_SetResponse",
    summary: "Set a channel's custom response",
    description:
      "Mailroom's extension: status, headers, body and delay senders receive, whether their hooks are stored, and a `sequence` of answers " +
      "for the next requests. Applies to the next request; kept across restarts (the sequence starts over). 409 for a channel whose response the config file sets.",
  },
  "DELETE /v1/channels/:name/response": {
    operationId: "ChannelService_ResetResponse",
    summary: "Reset a channel's custom response",
    description: "Mailroom's extension: senders get the default answer again. 409 for a channel whose response the config file sets.",
  },
  "POST /v1/hooks/:id/tags": {
    operationId: "HookService_TagHook",
    summary: "Add tags to a hook",
    description:
      "Mailroom's extension (docs/tags.md): `{\"tags\": [...]}`, 1 to 20 tags of 1 to 32 characters of a-z, 0-9, `.`, `_`, `-`; answers the hook's tags. A tag already there is no error.",
  },
  "DELETE /v1/hooks/:id/tags": {
    operationId: "HookService_UntagHook",
    summary: "Remove tags from a hook",
    description: "Mailroom's extension (docs/tags.md): the same body as adding; answers the hook's tags. A tag not there is no error.",
  },
  "POST /v1/hooks/:id/read": {
    operationId: "HookService_MarkRead",
    summary: "Mark a hook read",
    description: "Mailroom's extension (docs/tags.md): for the caller (a dashboard user, or the API key itself); `is:unread` leaves it out then.",
  },
  "DELETE /v1/hooks/:id/read": {
    operationId: "HookService_MarkUnread",
    summary: "Mark a hook unread",
    description: "Mailroom's extension (docs/tags.md): for the caller again.",
  },
  "GET /v1/unread": {
    operationId: "HookService_CountUnread",
    summary: "Count the caller's unread hooks",
    description: "Mailroom's extension (docs/tags.md): the total and the count per channel (channels with none left out).",
  },
  "GET /v1/channels/:name/dedup": {
    operationId: "ChannelService_GetDedup",
    summary: "Get a channel's deduplication",
    description: "Mailroom's extension: the channel's dedup setting (from the config file) and how many repeated deliveries it dropped.",
  },
  "GET /v1/hooks": {
    operationId: "HookService_ListHooks",
    summary: "List hooks",
    description:
      "Newest first. Pass the last id of a page as `after` for older hooks; a page shorter than `limit` (default 50) is the last. " +
      "Mailroom's extensions: `q` searches (free words in bodies, headers and query strings; field terms `payload.PATH:VALUE`, `header.NAME:VALUE`, " +
      "`type:`, `method:`, `ip:`, `channel:`; `-term`, `NOT`, `OR`, parentheses, `status:`, `has:attempts`, `has:refusal`, `larger:`, `smaller:`, `after:`, `before:`: docs/search.md), `since` and `until` bound the time caught, `event_type` filters by the sender's event type, " +
      "`fields=summary` answers HookSummary items, and `include=extensions` answers HookExtended items (the Hook with Mailroom's extension fields, " +
      "`event_type` and `source_id`). Without `include` every item is exactly the Hook resource: no other property.",
  },
  "GET /v1/hooks/:id": {
    operationId: "HookService_GetHook",
    summary: "Get a hook",
    description:
      "Exactly the Hook resource (no other property); with `include=extensions` (Mailroom's extension) HookExtended, the Hook with Mailroom's extension fields " +
      "(`event_type`, `source_id`).",
  },
  "DELETE /v1/hooks/:id": { operationId: "HookService_DeleteHook", summary: "Delete a hook", description: "Permanently." },
  "POST /v1/hooks/:id/discard": transition("HookService_DiscardHook", "Discard", "From pending or failed; queued handler attempts are cancelled."),
  "POST /v1/hooks/:id/retry": transition(
    "HookService_RetryHook",
    "Retry",
    "From failed or discarded, back to pending; handlers whose last try failed run again.",
  ),
  "POST /v1/hooks/:id/redeliver": transition(
    "HookService_RedeliverHook",
    "Redeliver",
    "Mailroom's extension: delivers the hook again to every handler of its channel, whatever its status (handled included), " +
      "back to pending; recorded as a `retried` event. 409 on a channel without handlers.",
  ),
  "POST /v1/hooks/:id/process": transition(
    "HookService_ProcessHook",
    "Process",
    "Mailroom's extension: a consumer reports a pending hook handled (channels without handlers only).",
  ),
  "POST /v1/hooks/:id/fail": transition(
    "HookService_FailHook",
    "Fail",
    "Mailroom's extension: a consumer reports a pending hook failed, with a message (channels without handlers only).",
  ),
  "GET /v1/hooks/:id/attempts": {
    operationId: "HookService_ListAttempts",
    summary: "List a hook's handler attempts",
    description: "Mailroom's extension: every handler attempt of the hook, oldest first.",
  },
  "GET /v1/stream": {
    operationId: "StreamService_Stream",
    summary: "Follow hooks and channels live",
    description:
      "Mailroom's extension: Server-Sent Events. Event `hook` carries the HookExtended resource (or with `fields=summary` HookSummary) whenever a hook is caught or changes " +
      "status (filtered by `channel` and `status` as in ListHooks), `channel` the Channel resource whenever its stats or state " +
      "change; `refusal` the refused request as ListRefusals shows it (filtered by `channel`); `hook-deleted` and `channel-deleted` name what went; `reset` asks the client to reload its lists. Each event's " +
      "`id` resumes with `Last-Event-ID`. A comment line is sent as a heartbeat.",
    success: {
      status: 200,
      description: "The stream, open until the client or the server ends it.",
      contentType: "text/event-stream",
      schema: t.String({ description: "text/event-stream: `id:`, `event:` and `data:` lines (data is the resource as JSON)" }),
    },
  },
  "GET /metrics": {
    operationId: "MetricsService_Metrics",
    summary: "Metrics in the Prometheus text format",
    description:
      "Mailroom's extension: counters, gauges and histograms of catching, guards, handlers, the translation API, the database " +
      "and the process (docs/metrics.md). Needs a bearer token unless `[metrics] auth = false`; absent with `[metrics] listen` " +
      "(then served on that address) or `enabled = false`.",
    success: {
      status: 200,
      description: "The metrics.",
      contentType: "text/plain; version=0.0.4",
      schema: t.String({ description: "Prometheus text exposition format 0.0.4" }),
    },
  },
  "GET /v1/refusals": {
    operationId: "RefusalService_ListRefusals",
    summary: "List refused requests",
    description:
      "Mailroom's extension: the most recent refused requests (never caught), by a guard or by the catching endpoint itself (400, 413, 503; `guard` is then empty), " +
      "and the providers' handshakes answered (`kind` `handshake`, status 200: Slack url_verification, Discord PING, Meta hub.challenge...; every other entry is `refused`), " +
      "newest first, with their headers and query (credentials redacted); `channel`, `guard`, `status` and `kind` filter; `limit` defaults to 50.",
  },
  "GET /v1/hooks/export": {
    operationId: "HookService_ExportHooks",
    summary: "Export hooks",
    description:
      "Mailroom's extension: every hook ListHooks would list with these filters (`q`, `channel`, `status`, `event_type`, `since`, `until`), or the one `id`, " +
      "newest first and without a limit, streamed as JSON lines (`format=jsonl`, the default: one ExportedHook per line) or as a HAR 1.2 document (`format=har`).",
    success: {
      status: 200,
      description: "The hooks, as they are read.",
      contentType: "application/x-ndjson",
      schema: t.String({ description: "One ExportedHook (JSON) per line" }),
      alsoAs: { "application/json": t.Object({ log: t.Object({ version: t.Literal("1.2"), creator: t.Unknown(), entries: t.Array(t.Unknown()) }) }) },
    },
  },
  "POST /v1/hooks/import": {
    operationId: "HookService_ImportHooks",
    summary: "Import hooks",
    description:
      "Mailroom's extension: JSON lines as ExportHooks writes them (`Content-Type: application/x-ndjson`, at most 64 MiB), each hook stored with its id, status, " +
      "times, headers, exact body and events; an id that exists is skipped, so importing twice changes nothing. Imported hooks run no handler.",
    body: { required: true, content: { "application/x-ndjson": { schema: { type: "string", description: "JSON lines: one ExportedHook per line" } } } },
  },
  "POST /v1/hooks/:id/send": {
    operationId: "HookService_SendHook",
    summary: "Send a hook into a channel as a new hook",
    description:
      "Mailroom's extension (edit and send): a new hook in `channel` made from this one, with `method`, `headers` and `body` (base64) as given, else the source's; " +
      "caught now (the channel's handlers run, its guards do not), answered as HookExtended, its `source_id` naming the source. 400 for a paused channel.",
  },
  "GET /v1/hooks/:id/fixture": {
    operationId: "HookService_GetHookFixture",
    summary: "Get a hook as a fixture file",
    description:
      "Mailroom's extension: the hook as a fixture (a readable JSON file for a repository: method, query, headers, body, provider, event type), made from " +
      "its stored bytes, answered as a download (`Content-Disposition: attachment`). Scrubbed unless `scrub=false`: signature and credential headers " +
      "dropped, e-mail addresses, keys and tokens, card numbers, IP addresses and phone numbers replaced by stable placeholders, `[fixtures] keep` and " +
      "`scrub` applied; `scrubbed` lists where (never the values). `mailroom trigger --fixture` sends it again (docs/fixtures.md).",
    success: { status: 200, description: "The fixture file.", schema: FixtureFile },
  },
  "POST /v1/hooks/:id/replay": {
    operationId: "HookService_ReplayHook",
    summary: "Send a hook to a URL and show the answer",
    description:
      "Mailroom's extension (edit and send): Mailroom sends this hook (with `method`, `headers` and `body` as given, else its own; credentials stored redacted are left out) " +
      "to `url`, checked as a forward handler's target, without following redirects, and answers the status, headers and body (base64, at most 1 MiB) it got back within 10 s, " +
      "or `error` when it got none.",
  },
  "GET /v1/handlers": {
    operationId: "HandlerService_ListHandlers",
    summary: "List handlers and their delivery state",
    description:
      "Mailroom's extension: every handler of the config file and of the dashboard, by name, with its channels, its state (`active`, `paused`, " +
      "`breaker_open`, `breaker_half_open`), its `rate`, its circuit breaker and how many of its attempts wait (docs/handlers.md).",
  },
  "GET /v1/handlers/:name": {
    operationId: "HandlerService_GetHandler",
    summary: "Get a handler's delivery state",
    description: "Mailroom's extension: one handler as ListHandlers shows it; 404 for a name no handler has.",
  },
  "POST /v1/handlers/:name/pause": {
    operationId: "HandlerService_PauseHandler",
    summary: "Pause a handler",
    description:
      "Mailroom's extension: the handler's attempts wait (queued, none dropped) and new hooks queue theirs, until it is resumed; kept across restarts " +
      "and on every instance sharing the database. Pausing a paused handler changes nothing. An admin action in the dashboard.",
  },
  "POST /v1/handlers/:name/resume": {
    operationId: "HandlerService_ResumeHandler",
    summary: "Resume a handler",
    description: "Mailroom's extension: what waited runs, at the handler's rate. Resuming a handler that is not paused changes nothing.",
  },
  "GET /v1/issues": {
    operationId: "IssueService_ListIssues",
    summary: "List alert issues",
    description:
      "Mailroom's extension (docs/alerts.md): the issues the `[[alerts]]` rules opened, newest first, `state` open, acknowledged or resolved; " +
      "`limit` (1-100, 50) and `after` (the last id of the previous page) page them.",
  },
  "GET /v1/issues/:id": {
    operationId: "IssueService_GetIssue",
    summary: "Get an alert issue",
    description: "Mailroom's extension: one issue, with its history (who did what, when); 404 for an id no issue has.",
  },
  "POST /v1/issues/:id/ack": {
    operationId: "IssueService_AckIssue",
    summary: "Acknowledge an alert issue",
    description: "Mailroom's extension: open -> acknowledged (no more reminders); 409 from any other state.",
  },
  "POST /v1/issues/:id/resolve": {
    operationId: "IssueService_ResolveIssue",
    summary: "Resolve an alert issue",
    description:
      "Mailroom's extension: open or acknowledged -> resolved, by hand; the rule's notifiers are told. The rule does not open it again until its condition has cleared. 409 when resolved already.",
  },
  "GET /v1/alerts": {
    operationId: "AlertService_ListAlertRules",
    summary: "List the alert rules",
    description:
      "Mailroom's extension (docs/alerts.md): the config file's `[[alerts]]` (`source: config`, read-only here) and the rules made through the API or the dashboard " +
      "(`source: api`), with who made and last changed them. An admin's in the dashboard.",
  },
  "GET /v1/alerts/:name": {
    operationId: "AlertService_GetAlertRule",
    summary: "Get an alert rule",
    description: "Mailroom's extension: one rule as ListAlertRules shows it; 404 for a name no rule has.",
  },
  "POST /v1/alerts": {
    operationId: "AlertService_CreateAlertRule",
    success: { status: 201, description: "Created" },
    summary: "Make an alert rule",
    description:
      "Mailroom's extension: a rule with the keys of an `[[alerts]]` entry, checked as `check-config` checks the file (400 naming every problem), " +
      "evaluated from the next second on every instance; 409 when a rule of that name exists (in the file or made here).",
  },
  "PATCH /v1/alerts/:name": {
    operationId: "AlertService_UpdateAlertRule",
    summary: "Change an alert rule",
    description:
      "Mailroom's extension: the keys given replace the rule's (null removes one; the name stays), checked again as a whole; its open issues stay and resolve " +
      "when the changed condition clears. 409 for a rule of the config file, 404 for none.",
  },
  "DELETE /v1/alerts/:name": {
    operationId: "AlertService_DeleteAlertRule",
    success: { status: 204, description: "Deleted" },
    summary: "Delete an alert rule",
    description:
      "Mailroom's extension: the rule stops at once and its issues are resolved by the caller (the notifiers told). 409 for a rule of the config file, 404 for none.",
  },
  "GET /v1/notifiers": {
    operationId: "NotifierService_ListNotifiers",
    summary: "List the alerts' notifiers",
    description:
      "Mailroom's extension (docs/notifiers.md): each `[[notifiers]]` entry with where it sends (an incoming webhook's origin only: its path is a secret; " +
      "an SMTP server and the recipients), its queue, what it sent and failed, and its last error (secrets masked). Never a URL's path, a secret or a password. " +
      "An admin's in the dashboard.",
  },
  "POST /v1/notifiers/:name/test": {
    operationId: "NotifierService_TestNotifier",
    summary: "Send a test notice",
    description:
      "Mailroom's extension: sends a test notice through the notifier now, once, without retries, and answers whether it was sent and, if not, why (secrets masked); " +
      "404 for a name no notifier has. An admin's in the dashboard.",
  },
  "POST /v1/hooks/bulk": {
    operationId: "HookService_BulkHooks",
    success: { status: 200, description: "A dry run's count, or the job started; export answers JSON lines (application/x-ndjson) instead" },
    summary: "Act on every hook a query matches",
    description:
      "Mailroom's extension (docs/bulk.md): `query` (docs/search.md) and `action` (retry, redeliver, discard, delete, export, send). The hooks are the query's " +
      "matches up to the newest hook at the start, in a status the action applies to; none caught later is in it. `dry_run: true` answers their count and " +
      "touches nothing (DryRun); `export` answers them as JSON lines (ExportedHook, header Mailroom-Bulk-Count); the others start a job (BulkJob) that runs in batches. `send` needs `url`, " +
      "checked as a replay's, and an admin (a key with full access).",
  },
  "GET /v1/hooks/bulk": {
    operationId: "HookService_ListBulkJobs",
    summary: "List bulk jobs",
    description: "Mailroom's extension: the bulk jobs, newest first; `limit` (1-100, 20) and `after` (the last id of the previous page) page them.",
  },
  "GET /v1/hooks/bulk/:id": {
    operationId: "HookService_GetBulkJob",
    summary: "Get a bulk job's progress",
    description: "Mailroom's extension: its state (running, done, cancelled, failed) and counts (total, done, skipped, failed), from any instance.",
  },
  "DELETE /v1/hooks/bulk/:id": {
    operationId: "HookService_CancelBulkJob",
    summary: "Cancel a bulk job",
    description: "Mailroom's extension: running -> cancelled; the batch in flight ends first, and is counted. 409 when the job has ended.",
  },
  "GET /v1/views": {
    operationId: "ViewService_ListViews",
    summary: "List saved views",
    description:
      "Mailroom's extension (docs/views.md): the shared views and the caller's own, by name; `include=count` counts each one's matches (up to 10,000).",
  },
  "POST /v1/views": {
    operationId: "ViewService_SaveView",
    summary: "Save a view",
    description: "Mailroom's extension: a named query, the caller's own or (`shared: true`, admins) everyone's; saving a name again replaces its query.",
  },
  "DELETE /v1/views/:name": {
    operationId: "ViewService_DeleteView",
    success: { status: 204, description: "Deleted" },
    summary: "Delete a saved view",
    description: "Mailroom's extension: the caller's own view of that name, or the shared one with `shared=true` (admins). 404 when there is none.",
  },
  "POST /v1/share-links": {
    operationId: "ShareLinkService_CreateShareLink",
    summary: "Share a hook or a saved view",
    description:
      "Mailroom's extension (docs/security.md, Share links): a read-only link to one hook (`hook`) or a saved view's hooks (`view`), for `days` (1-90, 7 by default). Its `token` and `url` are in this answer only; opening the URL needs no sign-in.",
  },
  "GET /v1/share-links": {
    operationId: "ShareLinkService_ListShareLinks",
    summary: "List share links",
    description: "Mailroom's extension: the links not expired, newest first, never their tokens. Admins or keys without scopes.",
  },
  "DELETE /v1/share-links/:id": {
    operationId: "ShareLinkService_RevokeShareLink",
    success: { status: 204, description: "Revoked" },
    summary: "Revoke a share link",
    description: "Mailroom's extension: the link answers 404 from now on. 404 when there is no such link.",
  },
  "GET /v1/refusals/:id": {
    operationId: "RefusalService_GetRefusal",
    summary: "Get a refused request",
    description: "Mailroom's extension: one refusal by its id (as listed or streamed), while it is among the newest 1000.",
  },
  "POST /v1/refusals/:id/diagnose": {
    operationId: "RefusalService_DiagnoseRefusal",
    summary: "Diagnose a refused request again",
    description:
      "Mailroom's extension (docs/diagnoses.md): works a signature refusal's diagnosis out again from the request kept with it, as of when it was refused, and stores it. Admins or keys without scopes.",
  },
};

/** The webhook service: the management API under /v1 and the catching endpoint. */
export const webhooksDocument: DocumentDef = {
  name: "webhooks",
  title: "Mailroom webhooks",
  version: "1.0.0",
  description:
    "Catch any request at `/?channel=NAME`; list, inspect, pause, resume, retry, discard and delete hooks through the " +
    'management API under /v1 (bearer token). Every error has one body: `{"code": <gRPC code>, "message", "details": []}`.',
  owns: (path) => path === "/" || path === "/metrics" || (path.startsWith("/v1/") && apiOf(path) === undefined),
  securitySchemes: { bearerAuth: { type: "http", scheme: "bearer", description: "A configured [[api_keys]] token, or the one printed at first start." } },
  security: [{ bearerAuth: [] }],
  models: {
    Channel,
    ChannelStats,
    Hook,
    HookExtended,
    HookSummary,
    ExportedHook,
    ImportReport,
    ReplayAnswer,
    BulkJob,
    View,
    Event,
    Attempt,
    Refusal,
    CaughtHook,
    ChannelResponse,
    ChannelDedup,
    HandlerInfo,
    Empty,
    Error: ErrorBody,
  },
  errorStatuses: errorStatuses(),
  errors: { all: [401, 500], withInput: [400], withBody: [413, 415] },
  operations,
};
