import { afterAll, describe, expect, test } from "bun:test";
import { AUTH, eventually, startTarget, type Target } from "../helpers/target";
import { ADMIN, CUSTOMER, TRANSLATOR, basic, startTranslate, translateConfig, PNG_1x2 } from "../translate/setup";
import { createSchemaChecker, fetchDocuments, operations, type Doc } from "./support";

/**
 * Real answers of every documented operation, success and error, checked against the document:
 * the status must be one it lists, and the body must match that status's schema. Runs on every
 * target (MAILROOM_TEST_TARGET): the executable's answers are checked too.
 */
const app = await startTranslate();
const paused = await startTarget({ translate: translateConfig({ maintenance: true }) });
afterAll(async () => {
  await app.stop();
  await paused.stop();
});
const docs = await fetchDocuments(app);
const checkers = new Map([...docs].map(([name, doc]) => [name, createSchemaChecker(doc)]));
const seen = new Map<string, Set<number>>();

function find(docName: string, operationId: string) {
  const found = operations(docs.get(docName)!).find((o) => o.op.operationId === operationId);
  if (!found) throw new Error(`${docName}: no operation ${operationId}`);
  return found;
}

type Send = { path: string; body?: unknown; headers?: Record<string, string>; method?: string; via?: Target };

/** Sends the request through the app and checks the answer against the operation's documented response. */
async function send(docName: string, operationId: string, { path, body, headers = {}, method, via = app }: Send) {
  const { method: documented, path: template, op } = find(docName, operationId);
  const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, "[^/?]+")}(\\?.*)?$`);
  expect(pattern.test(path)).toBe(true);
  const init: RequestInit = { method: method ?? documented, headers: { ...headers } };
  if (body !== undefined) {
    init.body = typeof body === "string" ? body : JSON.stringify(body);
    (init.headers as Record<string, string>)["content-type"] ??= "application/json";
  }
  const res = await via.fetch(path, init);
  const status = String(res.status);
  const response = op.responses[status] as Doc | undefined;
  if (!response) throw new Error(`${operationId}: status ${status} is not documented (${await res.text()})`);
  const resolved = response.$ref ? docs.get(docName)!.components.responses[response.$ref.split("/").pop()] : response;
  const other = Object.keys(resolved.content ?? {}).find((type) => type !== "application/json");
  // A stream or a text document: its media type is checked, and a stream is not read to its end.
  const text = other ? "" : await res.text();
  if (other) {
    expect(res.headers.get("content-type") ?? "").toStartWith(other.split(";")[0]!);
    await res.body?.cancel();
  } else if (resolved.content?.["application/json"]) {
    expect(res.headers.get("content-type") ?? "").toStartWith("application/json");
    const parts = response.$ref
      ? ["components", "responses", response.$ref.split("/").pop(), "content", "application/json", "schema"]
      : ["paths", template, documented.toLowerCase(), "responses", status, "content", "application/json", "schema"];
    const checker = checkers.get(docName)!;
    const validate = checker.compile(parts);
    const json = JSON.parse(text);
    if (!validate(json)) throw new Error(`${operationId} ${status}: ${checker.errors(validate)}\n${text}`);
  } else {
    expect(text).toBe("");
  }
  const key = `${docName} ${operationId}`;
  (seen.get(key) ?? seen.set(key, new Set()).get(key)!).add(res.status);
  return { status: res.status, json: text && !other ? JSON.parse(text) : undefined };
}

const UNKNOWN_ID = "01jd3q9x0c2m8t6v4r2k8p1w5z";

describe("webhook responses match webhooks.json", () => {
  const w = (id: string, s: Send) => send("webhooks", id, { ...s, headers: s.headers ?? AUTH });

  test("catching, channels, hooks, attempts and refusals", async () => {
    const caught = await w("CatchService_CatchHook", { path: "/?channel=shop", body: '{"a":1}', headers: {} });
    expect(caught.status).toBe(200);
    expect((await w("CatchService_CatchHook", { path: "/?channel=Not%20A%20Name", body: "x", headers: {} })).status).toBe(400);
    const id = caught.json.id as string;
    const [second, third] = await app.catchHooks("shop", 2);

    expect((await w("ChannelService_ListChannels", { path: "/v1/channels" })).status).toBe(200);
    expect((await w("ChannelService_ListChannels", { path: "/v1/channels", headers: {} })).status).toBe(401);
    expect((await w("ChannelService_ListChannels", { path: "/v1/channels?x=1" })).status).toBe(400);
    expect((await w("ChannelService_GetChannel", { path: "/v1/channels/shop" })).status).toBe(200);
    expect((await w("ChannelService_GetChannel", { path: "/v1/channels/nothing" })).status).toBe(404);
    expect((await w("ChannelService_PauseChannel", { path: "/v1/channels/shop/pause" })).status).toBe(200);
    expect((await w("CatchService_CatchHook", { path: "/?channel=shop", body: "{}", headers: {} })).status).toBe(503);
    expect((await w("ChannelService_PauseChannel", { path: "/v1/channels/nothing/pause" })).status).toBe(404);
    expect((await w("ChannelService_ResumeChannel", { path: "/v1/channels/shop/resume" })).status).toBe(200);
    expect((await w("ChannelService_ResumeChannel", { path: "/v1/channels/BAD/resume" })).status).toBe(400);
    // An operation without a body still reads one that is sent.
    const text = { ...AUTH, "content-type": "text/plain" };
    expect((await w("ChannelService_ResumeChannel", { path: "/v1/channels/shop/resume", body: "resume", headers: text })).status).toBe(415);
    expect((await w("ChannelService_ResumeChannel", { path: "/v1/channels/shop/resume", body: "x".repeat(70_000), headers: text })).status).toBe(413);
    expect((await w("ChannelService_ResumeChannel", { path: "/v1/channels/shop/resume", body: { paused: false } })).status).toBe(400);

    expect((await w("HookService_ListHooks", { path: "/v1/hooks?channel=shop&limit=2" })).status).toBe(200);
    expect((await w("HookService_ListHooks", { path: "/v1/hooks?limit=0" })).status).toBe(400);
    expect((await w("HookService_GetHook", { path: `/v1/hooks/${id}` })).status).toBe(200);
    expect((await w("HookService_GetHook", { path: `/v1/hooks/${UNKNOWN_ID}` })).status).toBe(404);
    expect((await w("HookService_GetHook", { path: "/v1/hooks/nope" })).status).toBe(400);
    expect((await w("HookService_DiscardHook", { path: `/v1/hooks/${id}/discard` })).status).toBe(200);
    expect((await w("HookService_DiscardHook", { path: `/v1/hooks/${id}/discard` })).status).toBe(409);
    expect((await w("HookService_RetryHook", { path: `/v1/hooks/${id}/retry` })).status).toBe(200);
    expect((await w("HookService_RetryHook", { path: `/v1/hooks/${id}/retry` })).status).toBe(409);
    expect((await w("HookService_ProcessHook", { path: `/v1/hooks/${id}/process` })).status).toBe(200);
    expect((await w("HookService_ProcessHook", { path: `/v1/hooks/${id}/process` })).status).toBe(409);
    expect((await w("HookService_FailHook", { path: `/v1/hooks/${second}/fail`, body: { message: "no" } })).status).toBe(200);
    expect((await w("HookService_FailHook", { path: `/v1/hooks/${second}/fail`, body: { message: "again" } })).status).toBe(409);
    expect((await w("HookService_FailHook", { path: `/v1/hooks/${third}/fail`, body: { note: "x" } })).status).toBe(400);
    expect(
      (await w("HookService_FailHook", { path: `/v1/hooks/${third}/fail`, body: "message", headers: { ...AUTH, "content-type": "text/plain" } })).status,
    ).toBe(415);
    expect((await w("HookService_ListAttempts", { path: `/v1/hooks/${id}/attempts` })).status).toBe(200);
    expect((await w("HookService_ListAttempts", { path: `/v1/hooks/${UNKNOWN_ID}/attempts` })).status).toBe(404);
    expect((await w("RefusalService_ListRefusals", { path: "/v1/refusals?channel=shop" })).status).toBe(200);
    expect((await w("ChannelService_SetResponse", { path: "/v1/channels/shop/response", body: { status: 500, sequence: [{ delay: "1ms" }] } })).status).toBe(
      200,
    );
    expect((await w("ChannelService_SetResponse", { path: "/v1/channels/shop/response", body: { status: 99 } })).status).toBe(400);
    expect((await w("ChannelService_GetResponse", { path: "/v1/channels/shop/response" })).status).toBe(200);
    expect((await w("ChannelService_GetResponse", { path: "/v1/channels/BAD/response" })).status).toBe(400);
    expect((await w("ChannelService_ResetResponse", { path: "/v1/channels/shop/response" })).status).toBe(200);
    expect((await w("ChannelService_ResetResponse", { path: "/v1/channels/shop/response", headers: {} })).status).toBe(401);
    expect((await w("ChannelService_GetDedup", { path: "/v1/channels/shop/dedup" })).status).toBe(200);
    expect((await w("ChannelService_GetDedup", { path: "/v1/channels/shop/dedup?x=1" })).status).toBe(400);
    expect((await w("RefusalService_ListRefusals", { path: "/v1/refusals?limit=x" })).status).toBe(400);
    expect((await w("HookService_TagHook", { path: `/v1/hooks/${id}/tags`, body: { tags: ["billing"] } })).status).toBe(200);
    expect((await w("HookService_TagHook", { path: `/v1/hooks/${id}/tags`, body: { tags: ["Bad"] } })).status).toBe(400);
    expect((await w("HookService_UntagHook", { path: `/v1/hooks/${id}/tags`, body: { tags: ["billing"] } })).status).toBe(200);
    expect((await w("HookService_UntagHook", { path: `/v1/hooks/${UNKNOWN_ID}/tags`, body: { tags: ["billing"] } })).status).toBe(404);
    expect((await w("HookService_MarkRead", { path: `/v1/hooks/${id}/read` })).status).toBe(200);
    expect((await w("HookService_MarkRead", { path: `/v1/hooks/${UNKNOWN_ID}/read` })).status).toBe(404);
    expect((await w("HookService_MarkUnread", { path: `/v1/hooks/${id}/read` })).status).toBe(200);
    expect((await w("HookService_MarkUnread", { path: `/v1/hooks/${UNKNOWN_ID}/read` })).status).toBe(404);
    expect((await w("HookService_CountUnread", { path: "/v1/unread" })).status).toBe(200);
    expect((await w("HookService_CountUnread", { path: "/v1/unread", headers: {} })).status).toBe(401);
    const refused = await w("RefusalService_ListRefusals", { path: "/v1/refusals?kind=refused" });
    expect([refused.status, refused.json.length > 0, refused.json.every((r: { kind: string }) => r.kind === "refused")]).toEqual([200, true, true]);
    expect((await w("RefusalService_ListRefusals", { path: "/v1/refusals?kind=answered" })).status).toBe(400);
    const refusal = (await w("RefusalService_ListRefusals", { path: "/v1/refusals?status=400" })).json[0];
    expect((await w("RefusalService_GetRefusal", { path: `/v1/refusals/${refusal.id}` })).status).toBe(200);
    expect((await w("RefusalService_GetRefusal", { path: `/v1/refusals/${UNKNOWN_ID}` })).status).toBe(404);
    expect((await w("RefusalService_DiagnoseRefusal", { path: `/v1/refusals/${refusal.id}/diagnose` })).json.diagnosis).toBeNull();
    expect((await w("RefusalService_DiagnoseRefusal", { path: `/v1/refusals/${UNKNOWN_ID}/diagnose` })).status).toBe(404);
    const lines = await app.fetch("/v1/hooks/export?channel=shop", { headers: AUTH });
    const jsonl = await lines.text();
    expect((await w("HookService_ExportHooks", { path: "/v1/hooks/export?channel=shop&format=jsonl" })).status).toBe(200);
    expect((await w("HookService_ExportHooks", { path: "/v1/hooks/export?format=pdf" })).status).toBe(400);
    const ndjson = { ...AUTH, "content-type": "application/x-ndjson" };
    expect((await w("HookService_ImportHooks", { path: "/v1/hooks/import", body: jsonl, headers: ndjson })).status).toBe(200);
    expect((await w("HookService_ImportHooks", { path: "/v1/hooks/import", body: "{}", headers: AUTH })).status).toBe(400);
    const made = await w("HookService_SendHook", { path: `/v1/hooks/${id}/send`, body: { channel: "copies", body: "e30=" } });
    expect(made.status).toBe(200);
    expect(made.json.source_id).toBe(id);
    expect((await w("HookService_SendHook", { path: `/v1/hooks/${UNKNOWN_ID}/send`, body: { channel: "copies" } })).status).toBe(404);
    const unreachable = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("fine", { status: 202 }) });
    expect((await w("HookService_ReplayHook", { path: `/v1/hooks/${id}/replay`, body: { url: `http://127.0.0.1:${unreachable.port}/` } })).status).toBe(200);
    unreachable.stop(true);
    expect((await w("HookService_ReplayHook", { path: `/v1/hooks/${id}/replay`, body: { url: `http://127.0.0.1:${unreachable.port}/` } })).status).toBe(200);
    expect((await w("HookService_ReplayHook", { path: `/v1/hooks/${id}/replay`, body: { url: "nope" } })).status).toBe(400);
    const fixture = await w("HookService_GetHookFixture", { path: `/v1/hooks/${id}/fixture` });
    expect(fixture.status).toBe(200);
    expect(fixture.json.mailroom_fixture).toBe(1);
    expect((await w("HookService_GetHookFixture", { path: `/v1/hooks/${id}/fixture?scrub=maybe` })).status).toBe(400);
    expect((await w("HookService_GetHookFixture", { path: `/v1/hooks/${UNKNOWN_ID}/fixture` })).status).toBe(404);
    // Summaries, searches and their bounds validate as documented.
    expect((await w("HookService_ListHooks", { path: "/v1/hooks?channel=shop&fields=summary" })).status).toBe(200);
    expect((await w("HookService_ListHooks", { path: "/v1/hooks?q=shop+method:post&fields=summary&since=2020-01-01T00:00:00Z" })).status).toBe(200);
    expect((await w("HookService_ListHooks", { path: "/v1/hooks?q=payload.a:1" })).status).toBe(200);
    expect((await w("HookService_ListHooks", { path: "/v1/hooks?q=ab" })).status).toBe(400);
    expect((await w("HookService_RedeliverHook", { path: `/v1/hooks/${id}/redeliver` })).status).toBe(409); // no handlers
    const withHandler = await startTarget({ handlers: [{ name: "sink", kind: "command", argv: ["true"] }], channels: [{ name: "sinky", handlers: ["sink"] }] });
    const delivered = ((await (await withHandler.post("sinky", "{}")).json()) as { id: string }).id;
    expect((await w("HookService_RedeliverHook", { path: `/v1/hooks/${delivered}/redeliver`, via: withHandler })).status).toBe(200);
    expect((await w("HookService_RedeliverHook", { path: `/v1/hooks/${UNKNOWN_ID}/redeliver` })).status).toBe(404);
    expect((await w("StreamService_Stream", { path: "/v1/stream?channel=shop" })).status).toBe(200);
    expect((await w("StreamService_Stream", { path: "/v1/stream?status=done" })).status).toBe(400);
    expect((await w("MetricsService_Metrics", { path: "/metrics" })).status).toBe(200);
    expect((await w("MetricsService_Metrics", { path: "/metrics", headers: {} })).status).toBe(401);
    expect((await w("HookService_DeleteHook", { path: `/v1/hooks/${id}` })).status).toBe(200);
    expect((await w("HookService_DeleteHook", { path: `/v1/hooks/${id}` })).status).toBe(404);
    expect((await w("ChannelService_DeleteChannel", { path: "/v1/channels/shop" })).status).toBe(200);
    expect((await w("ChannelService_DeleteChannel", { path: "/v1/channels/BAD" })).status).toBe(400);
  });

  test("notifiers: list and test", async () => {
    const receiver = Bun.serve({ port: 0, fetch: () => new Response("ok") });
    try {
      const via = await startTarget({ notifiers: [{ name: "ops", kind: "slack", url: `http://127.0.0.1:${receiver.port}/services/T/B/secret` }] });
      expect((await w("NotifierService_ListNotifiers", { path: "/v1/notifiers", via })).json[0].target).toBe(`http://127.0.0.1:${receiver.port}/…`);
      expect((await w("NotifierService_ListNotifiers", { path: "/v1/notifiers", headers: {} })).status).toBe(401);
      expect((await w("NotifierService_TestNotifier", { path: "/v1/notifiers/ops/test", via })).json.sent).toBe(true);
      expect((await w("NotifierService_TestNotifier", { path: "/v1/notifiers/nope/test", via })).status).toBe(404);
    } finally {
      receiver.stop(true);
    }
  });

  test("alert rules: list, get, make, change, delete", async () => {
    const via = await startTarget({ alerts: [{ name: "file-rule", kind: "silence", for: "1h" }] });
    const rule = { name: "storm", kind: "rate", threshold: 5, window: "1m" };
    expect((await w("AlertService_CreateAlertRule", { path: "/v1/alerts", body: rule, via })).status).toBe(201);
    expect((await w("AlertService_CreateAlertRule", { path: "/v1/alerts", body: rule, via })).status).toBe(409);
    expect((await w("AlertService_CreateAlertRule", { path: "/v1/alerts", body: { name: "x", kind: "rate" }, via })).status).toBe(400);
    expect((await w("AlertService_ListAlertRules", { path: "/v1/alerts", via })).json.map((r: { source: string }) => r.source)).toEqual(["config", "api"]);
    expect((await w("AlertService_ListAlertRules", { path: "/v1/alerts", headers: {}, via })).status).toBe(401);
    expect((await w("AlertService_GetAlertRule", { path: "/v1/alerts/file-rule", via })).json.for).toBe("1h");
    expect((await w("AlertService_GetAlertRule", { path: "/v1/alerts/nope", via })).status).toBe(404);
    expect((await w("AlertService_UpdateAlertRule", { path: "/v1/alerts/storm", body: { threshold: 9 }, via })).json.threshold).toBe(9);
    expect((await w("AlertService_UpdateAlertRule", { path: "/v1/alerts/file-rule", body: { for: "2h" }, via })).status).toBe(409);
    expect((await w("AlertService_DeleteAlertRule", { path: "/v1/alerts/storm", via })).status).toBe(204);
    expect((await w("AlertService_DeleteAlertRule", { path: "/v1/alerts/storm", via })).status).toBe(404);
  });

  test("bulk jobs and saved views", async () => {
    await app.catchHooks("bulky", 3);
    expect((await w("HookService_BulkHooks", { path: "/v1/hooks/bulk", body: { query: "channel:bulky", action: "discard", dry_run: true } })).json.count).toBe(
      3,
    );
    expect((await w("HookService_BulkHooks", { path: "/v1/hooks/bulk", body: { query: "(", action: "discard" } })).status).toBe(400);
    const job = await w("HookService_BulkHooks", { path: "/v1/hooks/bulk", body: { query: "channel:bulky", action: "discard" } });
    expect(job.status).toBe(200);
    await eventually(
      "the job's end",
      async () => ((await (await app.fetch(`/v1/hooks/bulk/${job.json.id}`, { headers: AUTH })).json()) as { state: string }).state === "done" || undefined,
    );
    expect((await w("HookService_ListBulkJobs", { path: "/v1/hooks/bulk?limit=5" })).status).toBe(200);
    expect((await w("HookService_ListBulkJobs", { path: "/v1/hooks/bulk?limit=500" })).status).toBe(400);
    expect((await w("HookService_GetBulkJob", { path: `/v1/hooks/bulk/${job.json.id}` })).status).toBe(200);
    expect((await w("HookService_GetBulkJob", { path: `/v1/hooks/bulk/${UNKNOWN_ID}` })).status).toBe(404);
    expect((await w("HookService_CancelBulkJob", { path: `/v1/hooks/bulk/${job.json.id}` })).status).toBe(409);
    // A job of several batches rests between them: it is still running when cancelled.
    await app.catchHooks("bulky-many", 1000);
    const many = await w("HookService_BulkHooks", { path: "/v1/hooks/bulk", body: { query: "channel:bulky-many", action: "discard" } });
    expect((await w("HookService_CancelBulkJob", { path: `/v1/hooks/bulk/${many.json.id}` })).json.state).toBe("cancelled");
    expect((await w("HookService_CancelBulkJob", { path: `/v1/hooks/bulk/${UNKNOWN_ID}` })).status).toBe(404);
    expect((await w("ViewService_SaveView", { path: "/v1/views", body: { name: "bulky", query: "channel:bulky", shared: true } })).status).toBe(200);
    expect((await w("ViewService_SaveView", { path: "/v1/views", body: { name: "Bad Name", query: "x" } })).status).toBe(400);
    expect((await w("ViewService_ListViews", { path: "/v1/views?include=count" })).json[0].count).toBe(3);
    expect((await w("ViewService_ListViews", { path: "/v1/views?include=all" })).status).toBe(400);
    expect((await w("ViewService_DeleteView", { path: "/v1/views/bulky?shared=true" })).status).toBe(204);
    expect((await w("ViewService_DeleteView", { path: "/v1/views/bulky?shared=true" })).status).toBe(404);
  });

  test("share links: create, list, revoke", async () => {
    const [id] = await app.catchHooks("shared", 1);
    const link = await w("ShareLinkService_CreateShareLink", { path: "/v1/share-links", body: { hook: id, days: 2 } });
    expect(link.json.kind).toBe("hook");
    expect((await w("ShareLinkService_CreateShareLink", { path: "/v1/share-links", body: { hook: id, days: 91 } })).status).toBe(400);
    expect((await w("ShareLinkService_ListShareLinks", { path: "/v1/share-links" })).json.some((l: { id: string }) => l.id === link.json.id)).toBe(true);
    expect((await w("ShareLinkService_ListShareLinks", { path: "/v1/share-links?x=1" })).status).toBe(400);
    expect((await w("ShareLinkService_RevokeShareLink", { path: `/v1/share-links/${link.json.id}` })).status).toBe(204);
    expect((await w("ShareLinkService_RevokeShareLink", { path: `/v1/share-links/${link.json.id}` })).status).toBe(404);
  });

  test("issues: list, get, ack and resolve", async () => {
    const via = await startTarget({ channels: [{ name: "quiet" }], alerts: [{ name: "quiet", kind: "silence", channels: ["quiet"], for: "1ms" }] });
    const id = await eventually("an issue", async () => ((await (await via.fetch("/v1/issues", { headers: AUTH })).json()) as { id: string }[])[0]?.id);
    expect((await w("IssueService_ListIssues", { path: "/v1/issues?state=open&limit=10", via })).status).toBe(200);
    expect((await w("IssueService_ListIssues", { path: "/v1/issues?state=closed" })).status).toBe(400);
    expect((await w("IssueService_GetIssue", { path: `/v1/issues/${id}`, via })).json.rule).toBe("quiet");
    expect((await w("IssueService_GetIssue", { path: `/v1/issues/${UNKNOWN_ID}` })).status).toBe(404);
    expect((await w("IssueService_AckIssue", { path: `/v1/issues/${id}/ack`, via })).json.state).toBe("acknowledged");
    expect((await w("IssueService_AckIssue", { path: `/v1/issues/${id}/ack`, via })).status).toBe(409);
    expect((await w("IssueService_ResolveIssue", { path: `/v1/issues/${id}/resolve`, via })).json.state).toBe("resolved");
    expect((await w("IssueService_ResolveIssue", { path: `/v1/issues/${id}/resolve`, via })).status).toBe(409);
  });

  test("handlers: list, get, pause and resume", async () => {
    const via = await startTarget({
      handlers: [{ name: "app", kind: "forward", url: "http://127.0.0.1:9/x", rate: "10/s", breaker: {} }],
      channels: [{ name: "c", handlers: ["app"] }],
    });
    expect((await w("HandlerService_ListHandlers", { path: "/v1/handlers", via })).status).toBe(200);
    expect((await w("HandlerService_ListHandlers", { path: "/v1/handlers", headers: {} })).status).toBe(401);
    expect((await w("HandlerService_GetHandler", { path: "/v1/handlers/app", via })).status).toBe(200);
    expect((await w("HandlerService_GetHandler", { path: "/v1/handlers/nope" })).status).toBe(404);
    expect((await w("HandlerService_PauseHandler", { path: "/v1/handlers/app/pause", via })).json.state).toBe("paused");
    expect((await w("HandlerService_PauseHandler", { path: "/v1/handlers/BAD/pause" })).status).toBe(400);
    expect((await w("HandlerService_ResumeHandler", { path: "/v1/handlers/app/resume", via })).json.state).toBe("active");
    expect((await w("HandlerService_ResumeHandler", { path: "/v1/handlers/nope/resume" })).status).toBe(404);
  });
});

describe("translation responses match their documents", () => {
  const as = (key: string) => basic(key);
  const orderA = { source_language: "en", target_languages: ["de", "is"], resource: { type: "text/plain", metadata: "a.txt", data: "Hello world" } };

  for (const [doc, base] of [
    ["translate-a", "/v1"],
    ["translate-b", "/api/v1"],
  ] as const) {
    test(`${doc}: every customer operation`, async () => {
      const c = (id: string, s: Send) => send(doc, id, { ...s, headers: s.headers ?? as(CUSTOMER) });
      const body =
        doc === "translate-a"
          ? { ...orderA, comment: { text: "short", attachments: [{ type: "image/png", data: PNG_1x2 }] }, context: { tone: "FORMAL" } }
          : {
              source_language: "en",
              target_languages: ["de", "is"],
              text: "Hello world",
              comment: { text: "short", attachments: [{ type: "image/png", data: PNG_1x2 }] },
            };
      expect((await c("getAccount", { path: `${base}/account` })).status).toBe(200);
      expect((await c("getAccount", { path: `${base}/account`, headers: as("wrong") })).status).toBe(401);
      expect((await c("getAccount", { path: `${base}/account`, headers: as(TRANSLATOR) })).status).toBe(403);
      expect((await c("getAccount", { path: `${base}/account`, headers: { ...as(CUSTOMER), accept: "text/html" } })).status).toBe(406);
      expect((await c("getAccount", { path: `${base}/account`, via: paused })).status).toBe(503);
      const placed = await c("translate", { path: `${base}/translate`, body });
      expect(placed.status).toBe(200);
      expect((await c("translate", { path: `${base}/translate`, body: { ...body, source_language: "xx" } })).status).toBe(400);
      expect((await c("translate", { path: `${base}/translate`, body: "{" })).status).toBe(400);
      const [first, second] = placed.json.orders.map((o: { id: number }) => o.id);
      expect((await c("listOrders", { path: `${base}/orders?per_page=5` })).status).toBe(200);
      expect((await c("listOrders", { path: `${base}/orders?page=-1` })).status).toBe(400);
      expect((await c("getOrder", { path: `${base}/orders/${first}` })).status).toBe(200);
      expect((await c("getOrder", { path: `${base}/orders/999999` })).status).toBe(404);
      expect((await c("getOrder", { path: `${base}/orders/abc` })).status).toBe(404);
      expect((await send("translate-translator", "acceptOrder", { path: `/translator/v1/orders/${second}/accept`, headers: as(TRANSLATOR) })).status).toBe(200);
      expect((await c("deleteOrder", { path: `${base}/orders/${second}` })).status).toBe(400);
      expect((await c("deleteOrder", { path: `${base}/orders/${first}` })).status).toBe(204);
      expect((await c("deleteOrder", { path: `${base}/orders/${first}` })).status).toBe(404);
      expect((await c("listRates", { path: `${base}/rates`, headers: {} })).status).toBe(200);
      expect((await c("listRates", { path: `${base}/rates`, headers: as("wrong") })).status).toBe(401);
      if (doc === "translate-a") {
        expect(
          (
            await c("calculate", {
              path: "/v1/calculate",
              body: { source_language: "en", target_languages: ["de"], resource: { type: "text/plain", data: "Hi there" } },
            })
          ).status,
        ).toBe(200);
        expect((await c("calculate", { path: "/v1/calculate", body: { source_language: "en" } })).status).toBe(400);
      }
    });
  }

  test("translate-translator and translate-admin: every operation", async () => {
    const placed = await send("translate-a", "translate", { path: "/v1/translate", body: orderA, headers: as(CUSTOMER) });
    const [id, queued] = placed.json.orders.map((o: { id: number }) => o.id);
    const tr = (op: string, s: Send) => send("translate-translator", op, { ...s, headers: s.headers ?? as(TRANSLATOR) });
    const ad = (op: string, s: Send) => send("translate-admin", op, { ...s, headers: s.headers ?? as(ADMIN) });

    expect((await tr("listWork", { path: "/translator/v1/orders?status=QUEUE" })).status).toBe(200);
    expect((await tr("listWork", { path: "/translator/v1/orders", headers: as(CUSTOMER) })).status).toBe(403);
    expect((await tr("getWork", { path: `/translator/v1/orders/${id}` })).status).toBe(200);
    expect((await tr("getWork", { path: "/translator/v1/orders/999999" })).status).toBe(404);
    expect((await tr("acceptOrder", { path: `/translator/v1/orders/${id}/accept` })).status).toBe(200);
    expect((await tr("acceptOrder", { path: "/translator/v1/orders/999999/accept" })).status).toBe(404);
    expect(
      (await tr("commentOrder", { path: `/translator/v1/orders/${id}/comments`, body: { text: "ok", attachments: [{ type: "image/png", data: PNG_1x2 }] } }))
        .status,
    ).toBe(200);
    expect((await tr("commentOrder", { path: `/translator/v1/orders/${id}/comments`, body: {} })).status).toBe(400);
    expect((await tr("completeOrder", { path: `/translator/v1/orders/${id}/complete`, body: { target_text: "Hallo Welt" } })).status).toBe(200);
    expect((await tr("completeOrder", { path: `/translator/v1/orders/${id}/complete`, body: { target_text: "" } })).status).toBe(400);

    expect((await ad("listAccounts", { path: "/admin/v1/accounts" })).status).toBe(200);
    expect((await ad("listAccounts", { path: "/admin/v1/accounts", headers: as(CUSTOMER) })).status).toBe(403);
    expect((await ad("getAccount", { path: "/admin/v1/accounts/1" })).status).toBe(200);
    expect((await ad("getAccount", { path: "/admin/v1/accounts/99" })).status).toBe(404);
    expect((await ad("getLedger", { path: "/admin/v1/accounts/1/ledger" })).status).toBe(200);
    expect((await ad("getLedger", { path: "/admin/v1/accounts/99/ledger" })).status).toBe(404);
    expect((await ad("topUp", { path: "/admin/v1/accounts/1/top-up", body: { amount: 10 } })).status).toBe(200);
    expect((await ad("topUp", { path: "/admin/v1/accounts/1/top-up", body: { amount: -1 } })).status).toBe(400);
    expect((await ad("setBalance", { path: "/admin/v1/accounts/1/balance", body: { balance: 500 } })).status).toBe(200);
    expect((await ad("setBalance", { path: "/admin/v1/accounts/99/balance", body: { balance: 5 } })).status).toBe(404);
    expect((await ad("setOverdraft", { path: "/admin/v1/accounts/2/overdraft", body: { allowed: false } })).status).toBe(200);
    expect((await ad("setOverdraft", { path: "/admin/v1/accounts/2/overdraft", body: { allowed: "no" } })).status).toBe(400);
    expect((await ad("getOrder", { path: `/admin/v1/orders/${id}` })).status).toBe(200);
    expect((await ad("getOrder", { path: "/admin/v1/orders/999999" })).status).toBe(404);
    expect((await ad("reopenOrder", { path: `/admin/v1/orders/${id}/reopen`, body: { comment: "once more" } })).status).toBe(200);
    expect((await ad("reopenOrder", { path: `/admin/v1/orders/${queued}/reopen` })).status).toBe(400);
    expect(
      (await ad("setFaults", { path: "/admin/v1/faults", body: { faults: [{ revision: "A", route: "GET /account", error: 429, count: 1 }] } })).status,
    ).toBe(200);
    expect((await ad("setFaults", { path: "/admin/v1/faults", body: { faults: [{ error: 418 }] } })).status).toBe(400);
    expect((await ad("getFaults", { path: "/admin/v1/faults" })).status).toBe(200);
    expect((await ad("getFaults", { path: "/admin/v1/faults", headers: as(CUSTOMER) })).status).toBe(403);
    expect((await ad("clearFaults", { path: "/admin/v1/faults" })).status).toBe(200);
    expect((await ad("clearFaults", { path: "/admin/v1/faults", headers: {} })).status).toBe(401);
    expect((await ad("reset", { path: "/admin/v1/reset", headers: as(TRANSLATOR) })).status).toBe(403);
    expect((await ad("reset", { path: "/admin/v1/reset" })).status).toBe(200);
    expect((await ad("createAccount", { path: "/admin/v1/accounts", body: { balance: 12.5, overdraft: true } })).status).toBe(201);
    expect((await ad("createAccount", { path: "/admin/v1/accounts", body: { balance: 1.234 } })).status).toBe(400);
    expect((await ad("simulatorCompleteNow", { path: "/admin/v1/simulator/complete-now" })).status).toBe(200);
    expect((await ad("simulatorCompleteNow", { path: "/admin/v1/simulator/complete-now", headers: as(CUSTOMER) })).status).toBe(403);
  });
});

test("a translation operation documents a body or query exactly when it refuses an unknown field in one", async () => {
  const keys: Record<string, string> = { "translate-a": CUSTOMER, "translate-b": CUSTOMER, "translate-translator": TRANSLATOR, "translate-admin": ADMIN };
  const wrong: string[] = [];
  for (const [name, key] of Object.entries(keys)) {
    for (const { method, path, op } of operations(docs.get(name)!)) {
      const url = path.replace(/\{[^}]+\}/g, "1");
      const tries: [string, boolean, RequestInit][] = [["query", (op.parameters ?? []).some((p: Doc) => p.in === "query"), { method, headers: basic(key) }]];
      if (method === "POST" || method === "PUT") {
        tries.push([
          "body",
          op.requestBody !== undefined,
          { method, headers: { ...basic(key), "content-type": "application/json" }, body: '{"zz_unknown":1}' },
        ]);
      }
      for (const [where, documented, init] of tries) {
        const res = await app.fetch(where === "query" ? `${url}?zz_unknown=1` : url, init);
        const json = (await res.json().catch(() => undefined)) as Doc | undefined;
        const checked = res.status === 400 && json?.code === "INVALID_REQUEST" && String(json?.description).startsWith(`invalid ${where}:`);
        if (checked !== documented)
          wrong.push(
            `${name} ${method} ${path}: ${where} ${documented ? "documented but not checked" : "checked but not documented"} (${res.status} ${json?.description})`,
          );
      }
    }
  }
  expect(wrong).toEqual([]);
});

test("every documented operation was answered at least once with success and once with an error", () => {
  const missing: string[] = [];
  for (const [name, doc] of docs) {
    for (const { op } of operations(doc)) {
      const statuses = [...(seen.get(`${name} ${op.operationId}`) ?? [])];
      if (!statuses.some((s) => s < 300) || !statuses.some((s) => s >= 400)) missing.push(`${name} ${op.operationId}: ${statuses.join(",")}`);
    }
  }
  expect(missing).toEqual([]);
});
