/** Tags and read marks under the dashboard's API (/ui/api, docs/tags.md): members as admins, each user their own marks. */
import { describe, expect, test } from "bun:test";
import { dashboardApp, ORIGIN } from "./support";

describe("tags and read marks in the dashboard's API", () => {
  test("a member tags and untags a hook, with the API's checks; without a session, 401", async () => {
    const app = await dashboardApp();
    const [id] = await app.catchHooks("orders", 1);
    const added = await app.call("POST", `/ui/api/hooks/${id}/tags`, { tags: ["billing"] }, app.member);
    expect(added.status).toBe(200);
    expect(added.json).toEqual({ tags: ["billing"] });
    const bad = await app.call("POST", `/ui/api/hooks/${id}/tags`, { tags: ["Not a tag"] }, app.member);
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({ code: 3, details: [] });
    expect((await app.call("GET", `/ui/api/hooks?fields=summary&include=extensions`, undefined, app.member)).json[0].tags).toEqual(["billing"]);
    expect((await app.call("DELETE", `/ui/api/hooks/${id}/tags`, { tags: ["billing"] }, app.admin)).json).toEqual({ tags: [] });
    expect((await app.call("POST", `/ui/api/hooks/${id}/tags`, { tags: ["x"] }, ORIGIN)).status).toBe(401);
  });

  test("each user's unread hooks are their own: a member's read mark leaves the admin's count", async () => {
    const app = await dashboardApp();
    const [a] = await app.catchHooks("orders", 2);
    expect((await app.call("POST", `/ui/api/hooks/${a}/read`, undefined, app.member)).json).toEqual({ read: true });
    expect((await app.call("GET", "/ui/api/unread", undefined, app.member)).json).toEqual({ total: 1, channels: { orders: 1 } });
    expect((await app.call("GET", "/ui/api/unread", undefined, app.admin)).json).toEqual({ total: 2, channels: { orders: 2 } });
    expect((await app.call("GET", "/ui/api/unread", undefined, ORIGIN)).status).toBe(401);
  });
});
