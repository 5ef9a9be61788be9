/** Bulk actions and saved views from the dashboard: what members and admins may do (the route-by-role matrix). */
import { describe, expect, test } from "bun:test";
import { dashboardApp } from "../dashboard/support";

describe("bulk actions and views by role", () => {
  test("members act in bulk but cannot send to a URL, even one member_send_to allows; admins can", async () => {
    const app = await dashboardApp({ dashboard: { member_send_to: ["http://localhost:*"] } });
    await app.catchHooks("orders", 3);
    const member = await app.call("POST", "/ui/api/hooks/bulk", { query: "channel:orders", action: "discard", dry_run: true }, app.member);
    expect(member.json).toMatchObject({ count: 3 });
    for (const body of [
      { query: "channel:orders", action: "send", url: "http://localhost:9/x" },
      { query: "channel:orders", action: "send", url: "http://localhost:9/x", dry_run: true },
    ]) {
      const refused = await app.call("POST", "/ui/api/hooks/bulk", body, app.member);
      expect(refused.status).toBe(403);
      expect(refused.json).toEqual({ code: 7, message: expect.stringContaining("only an admin"), details: [] });
    }
    const admin = await app.call(
      "POST",
      "/ui/api/hooks/bulk",
      { query: "channel:orders", action: "send", url: "http://localhost:9/x", dry_run: true },
      app.admin,
    );
    expect(admin.json).toMatchObject({ count: 3 });
    const job = await app.call("POST", "/ui/api/hooks/bulk", { query: "channel:orders", action: "discard" }, app.member);
    expect(job.json).toMatchObject({ actor: "max@example.com", state: "running" });
    expect((await app.call("POST", "/ui/api/hooks/bulk", { query: "x", action: "discard" }, {})).status).toBe(401);
  });

  test("views: a member saves their own, only an admin a shared one; each sees shared and their own", async () => {
    const app = await dashboardApp();
    await app.catchHooks("orders", 2);
    expect((await app.call("POST", "/ui/api/views", { name: "mine", query: "channel:orders" }, app.member)).status).toBe(200);
    const refused = await app.call("POST", "/ui/api/views", { name: "team", query: "channel:orders", shared: true }, app.member);
    expect(refused.status).toBe(403);
    expect((await app.call("POST", "/ui/api/views", { name: "team", query: "status:pending", shared: true }, app.admin)).status).toBe(200);
    expect((await app.call("POST", "/ui/api/views", { name: "broken", query: "(" }, app.member)).status).toBe(400);
    const seen = (await app.call("GET", "/ui/api/views?include=count", undefined, app.member)).json;
    expect(seen).toEqual([
      { name: "mine", query: "channel:orders", shared: false, created_by: "max@example.com", updated_at: expect.any(String), count: 2, count_exact: true },
      { name: "team", query: "status:pending", shared: true, created_by: "ada@example.com", updated_at: expect.any(String), count: 2, count_exact: true },
    ]);
    expect((await app.call("GET", "/ui/api/views", undefined, app.admin)).json.map((v: { name: string }) => v.name)).toEqual(["team"]);
    expect((await app.call("DELETE", "/ui/api/views/team?shared=true", undefined, app.member)).status).toBe(403);
    expect((await app.call("DELETE", "/ui/api/views/mine", undefined, app.member)).status).toBe(204);
    expect((await app.call("DELETE", "/ui/api/views/mine", undefined, app.member)).status).toBe(404);
  });
});
