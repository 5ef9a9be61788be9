import { describe, expect, test } from "bun:test";
import { AUTH, dashboardApp } from "./support";

describe("bulk actions in the dashboard", () => {
  test("discard every pending hook of a channel: the count first, then the action, recorded with the user's e-mail", async () => {
    const app = await dashboardApp();
    const ids = await app.catchHooks("orders", 5);
    await app.catchHooks("other", 2);
    const count = await app.call("GET", "/ui/api/bulk/discard?channel=orders&status=pending", undefined, app.member);
    expect(count.status).toBe(200);
    expect(count.json).toEqual({ action: "discard", channel: "orders", status: "pending", count: 5, until: ids[4] });
    // A hook caught after the count is not touched.
    const [late] = await app.catchHooks("orders", 1);
    const done = await app.call("POST", "/ui/api/bulk/discard", { channel: "orders", status: "pending", until: count.json.until }, app.member);
    expect(done.json).toEqual({ count: 5 });
    const channel = (await app.call("GET", "/v1/channels/orders")).json;
    expect(channel.stats).toMatchObject({ pending: "1", discarded: "5" });
    expect((await app.call("GET", `/v1/hooks/${late}`)).json.status).toBe("pending");
    const hook = (await app.call("GET", `/v1/hooks/${ids[0]}`)).json;
    expect(hook.events).toEqual([expect.objectContaining({ kind: "discarded", actor: "max@example.com" })]);
    expect((await app.call("GET", "/v1/channels/other")).json.stats.pending).toBe("2");
  });

  test("retry every failed hook of all channels, more than one batch", async () => {
    const app = await dashboardApp();
    const ids = [...(await app.catchHooks("a", 250)), ...(await app.catchHooks("b", 10))];
    for (const id of ids) await app.call("POST", `/v1/hooks/${id}/fail`, { message: "boom" });
    const count = await app.call("GET", "/ui/api/bulk/retry?status=failed", undefined, app.admin);
    expect(count.json).toMatchObject({ channel: null, count: 260 });
    const done = await app.call("POST", "/ui/api/bulk/retry", { status: "failed", until: count.json.until }, app.admin);
    expect(done.json).toEqual({ count: 260 });
    expect((await app.call("GET", "/v1/channels/a")).json.stats).toMatchObject({ pending: "250", failed: "0" });
  }, 30_000);

  test("a bulk action of many batches lets hooks be caught between its batches", async () => {
    const app = await dashboardApp();
    await app.catchHooks("many", 1000);
    const count = await app.call("GET", "/ui/api/bulk/discard?channel=many&status=pending", undefined, app.admin);
    const order: string[] = [];
    const bulk = app
      .call("POST", "/ui/api/bulk/discard", { channel: "many", status: "pending", until: count.json.until }, app.admin)
      .then((r) => (order.push("bulk"), r));
    const caught = app.post("meanwhile", "{}").then((r) => (order.push("caught"), r));
    expect((await caught).status).toBe(200);
    expect((await bulk).json).toEqual({ count: 1000 });
    expect(order).toEqual(["caught", "bulk"]);
  }, 30_000);

  test("an empty filter counts 0 with no until", async () => {
    const app = await dashboardApp();
    expect((await app.call("GET", "/ui/api/bulk/retry?channel=none&status=failed", undefined, app.admin)).json).toEqual({
      action: "retry",
      channel: "none",
      status: "failed",
      count: 0,
      until: null,
    });
  });

  test("bad input gets the error body; a session from this origin is needed", async () => {
    const app = await dashboardApp();
    const bad: [string, string, unknown][] = [
      ["GET", "/ui/api/bulk/delete?status=pending", undefined],
      ["GET", "/ui/api/bulk/retry?status=pending", undefined],
      ["GET", "/ui/api/bulk/retry", undefined],
      ["GET", "/ui/api/bulk/retry?status=failed&channel=Bad!", undefined],
      ["GET", "/ui/api/bulk/retry?status=failed&x=1", undefined],
      ["POST", "/ui/api/bulk/discard", { status: "pending" }],
      ["POST", "/ui/api/bulk/discard", { status: "handled", until: "01jd3q9x0c2m8t6v4r2k8p1w5z" }],
      ["POST", "/ui/api/bulk/discard", { status: "pending", until: "nope" }],
      ["POST", "/ui/api/bulk/discard", "[]"],
    ];
    for (const [method, path, body] of bad) {
      const res = await app.call(method, path, body, app.admin);
      expect([res.status, res.json?.code]).toEqual([400, 3]);
    }
    expect((await app.call("GET", "/ui/api/bulk/retry?status=failed", undefined, AUTH)).status).toBe(401);
    const cross = await app.call(
      "POST",
      "/ui/api/bulk/discard",
      { status: "pending", until: "01jd3q9x0c2m8t6v4r2k8p1w5z" },
      { ...app.admin, origin: "https://evil.example" },
    );
    expect(cross.status).toBe(403);
  });
});
