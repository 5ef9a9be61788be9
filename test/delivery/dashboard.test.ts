import { describe, expect, test } from "bun:test";
import { dashboardApp } from "../dashboard/support";
import { receivers } from "../runner/receiver";

/**
 * Issue 30 in the dashboard: the chaos toggle of a forward handler added there is stored (a
 * restart keeps it) and applied; re-signing is not stored with a forward (its secret would be in
 * the database): the config file or edit-and-send's per-send choice does it.
 */
const receiver = receivers();

describe("the dashboard's forward handlers and chaos", () => {
  test("chaos given with a forward is answered as written, applied to its deliveries and recorded on the attempt", async () => {
    const target = receiver({ status: 200 });
    const app = await dashboardApp();
    await app.catchHooks("app", 1);
    const added = await app.call(
      "POST",
      "/ui/api/channels/app/handlers",
      { name: "to-app", url: target.url, chaos: { duplicate: 1, delay: "0-5ms", seed: 9 } },
      app.admin,
    );
    expect(added.status).toBe(200);
    expect(added.json.chaos).toEqual({ duplicate: 1, delay: "0-5ms", seed: 9 });
    const [id] = await app.catchHooks("app", 1);
    await app.runner.tick();
    // The hook caught before the forward was added gets it too: each comes twice.
    expect(target.received).toHaveLength(4);
    const attempts = (await app.call("GET", `/ui/api/hooks/${id}/attempts`, undefined, app.member)).json;
    expect(attempts[0].chaos).toMatch(/duplicate/);
  });

  test("bad chaos is 400 naming the key; resign is refused (its secret would be stored); nothing is stored", async () => {
    const app = await dashboardApp();
    await app.catchHooks("app", 1);
    const bad = await app.call("POST", "/ui/api/channels/app/handlers", { name: "f", url: "http://127.0.0.1:9/", chaos: { duplicate: 3 } }, app.admin);
    expect(bad.status).toBe(400);
    expect(bad.json.message).toContain("chaos.duplicate");
    const resign = await app.call(
      "POST",
      "/ui/api/channels/app/handlers",
      { name: "f", url: "http://127.0.0.1:9/", resign: { kind: "stripe", secret: "whsec_x" } },
      app.admin,
    );
    expect(resign.status).toBe(400);
    expect(resign.json.message).toMatch(/^resign: re-signing is set in the config file/);
    expect(resign.text).not.toContain("whsec_x");
    expect((await app.call("GET", "/ui/api/channels/app/handlers", undefined, app.admin)).json).toEqual([]);
  });
});

describe("edit and send's re-sign choice", () => {
  test("GET /ui/api/resign-kinds lists the providers that can be re-signed with their key; signed in only", async () => {
    const app = await dashboardApp();
    const kinds = (await app.call("GET", "/ui/api/resign-kinds", undefined, app.member)).json as { kind: string; key: string }[];
    expect(kinds).toContainEqual({ kind: "stripe", key: "secret" });
    expect(kinds).toContainEqual({ kind: "discord", key: "private_key" });
    expect(kinds.map((k) => k.kind)).not.toContain("linear");
    expect(kinds.map((k) => k.kind)).not.toContain("mailgun");
    expect(kinds.length).toBeGreaterThan(100);
    expect((await app.call("GET", "/ui/api/resign-kinds", undefined, {})).status).toBe(401);
  });

  test("the dashboard's replay with resign sends a fresh signature in place of the caught one", async () => {
    const target = receiver({ status: 200 });
    const app = await dashboardApp();
    const [id] = await app.catchHooks("app", 1);
    const res = await app.call("POST", `/ui/api/hooks/${id}/replay`, { url: target.url, resign: { kind: "github", secret: "local" } }, app.admin);
    expect(res.status).toBe(200);
    expect(target.received[0]!.headers["x-hub-signature-256"]).toMatch(/^sha256=[0-9a-f]{64}$/);
  });
});
