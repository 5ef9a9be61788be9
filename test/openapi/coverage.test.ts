import { afterAll, describe, expect, test } from "bun:test";
import { createTestApp } from "../helpers/app";
import { fetchDocuments, operations } from "./support";

const app = createTestApp();
afterAll(() => app.close());
const docs = await fetchDocuments(app);
const documented = [...docs].flatMap(([name, doc]) => operations(doc).map((o) => ({ ...o, doc: name })));

/** The spec's ten operation ids, and Mailroom's documented extensions. */
const SPEC_IDS = [
  "ChannelService_ListChannels",
  "ChannelService_GetChannel",
  "ChannelService_DeleteChannel",
  "ChannelService_PauseChannel",
  "ChannelService_ResumeChannel",
  "HookService_ListHooks",
  "HookService_GetHook",
  "HookService_DeleteHook",
  "HookService_DiscardHook",
  "HookService_RetryHook",
];
const EXTENSIONS = [
  "HookService_ProcessHook",
  "HookService_FailHook",
  "HookService_RedeliverHook",
  "HookService_ListAttempts",
  "HandlerService_ListHandlers",
  "HandlerService_GetHandler",
  "HandlerService_PauseHandler",
  "IssueService_ListIssues",
  "IssueService_GetIssue",
  "IssueService_AckIssue",
  "IssueService_ResolveIssue",
  "NotifierService_ListNotifiers",
  "NotifierService_TestNotifier",
  "AlertService_ListAlertRules",
  "AlertService_GetAlertRule",
  "AlertService_CreateAlertRule",
  "AlertService_UpdateAlertRule",
  "AlertService_DeleteAlertRule",
  "HandlerService_ResumeHandler",
  "RefusalService_ListRefusals",
  "RefusalService_GetRefusal",
  "RefusalService_DiagnoseRefusal",
  "HookService_ExportHooks",
  "HookService_ImportHooks",
  "HookService_SendHook",
  "HookService_ReplayHook",
  "HookService_GetHookFixture",
  "CatchService_CatchHook",
  "StreamService_Stream",
  "MetricsService_Metrics",
  "ChannelService_GetResponse",
  "ChannelService_SetResponse",
  "ChannelService_ResetResponse",
  "ChannelService_GetDedup",
  "HookService_BulkHooks",
  "HookService_ListBulkJobs",
  "HookService_GetBulkJob",
  "HookService_CancelBulkJob",
  "ViewService_ListViews",
  "ViewService_SaveView",
  "ViewService_DeleteView",
  "ShareLinkService_CreateShareLink",
  "ShareLinkService_ListShareLinks",
  "ShareLinkService_RevokeShareLink",
  "HookService_TagHook",
  "HookService_UntagHook",
  "HookService_MarkRead",
  "HookService_MarkUnread",
  "HookService_CountUnread",
];
/** The dashboard's own JSON endpoints (session only, docs/dashboard.md): the page's, not a public contract. */
const isDashboardApi = (path: string) => path.startsWith("/ui/api/");

describe("every route is documented once", () => {
  const routes = app.app.routes as { method: string; path: string; hooks?: any }[];
  const visible = routes.filter((r) => r.hooks?.detail?.hide !== true && !isDashboardApi(r.path));

  test("each route of the app has exactly one operation, under its own id", () => {
    const missing: string[] = [];
    for (const route of visible) {
      const path = route.path.replace(/:([A-Za-z0-9_]+)/g, "{$1}");
      const found = documented.filter((o) => o.path === path && (route.method === "ALL" || o.method === route.method));
      if (found.length !== 1 || found[0]!.op["x-undocumented"]) missing.push(`${route.method} ${route.path}: ${found.length}`);
    }
    expect(missing).toEqual([]);
    expect(documented.length).toBe(visible.length);
  });

  test("operation ids are unique in each document", () => {
    for (const [, doc] of docs) {
      const ids = operations(doc).map((o) => o.op.operationId);
      expect(new Set(ids).size).toBe(ids.length);
    }
  });

  test("the webhook document has the spec's ten operation ids at their paths, and the extensions", () => {
    const byId = new Map(operations(docs.get("webhooks")!).map((o) => [o.op.operationId, `${o.method} ${o.path}`]));
    expect([...byId.keys()].sort()).toEqual([...SPEC_IDS, ...EXTENSIONS].sort());
    expect(byId.get("ChannelService_ListChannels")).toBe("GET /v1/channels");
    expect(byId.get("ChannelService_DeleteChannel")).toBe("DELETE /v1/channels/{name}");
    expect(byId.get("ChannelService_ResumeChannel")).toBe("POST /v1/channels/{name}/resume");
    expect(byId.get("HookService_ListHooks")).toBe("GET /v1/hooks");
    expect(byId.get("HookService_DeleteHook")).toBe("DELETE /v1/hooks/{id}");
    expect(byId.get("HookService_RetryHook")).toBe("POST /v1/hooks/{id}/retry");
    expect(byId.get("CatchService_CatchHook")).toBe("POST /");
  });

  test("only fallbacks (every method) and the documents themselves are left out", () => {
    for (const r of routes.filter((r) => r.hooks?.detail?.hide === true)) {
      expect(r.method === "ALL" || /^\/(openapi|docs)(\/|$)/.test(r.path)).toBe(true);
    }
  });
});
