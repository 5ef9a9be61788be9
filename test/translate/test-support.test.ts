import { describe, expect, test } from "bun:test";
import { basic, bearer, startTranslate } from "./setup";

/** The admin API's two operations for test suites: POST /admin/v1/accounts and the simulator's complete-now. */
describe("accounts created through the admin API", () => {
  test("get the next id, the opening balance and a key that works on revisions A and B, shown once", async () => {
    const app = await startTranslate();
    const created = await app.admin("POST", "/admin/v1/accounts", { balance: 40, overdraft: true });
    expect(created.status).toBe(201);
    expect(created.json).toEqual({
      id: 3,
      balance_overdraft_allowed: true,
      reserved: 0,
      balance: 40,
      api_key: expect.stringMatching(/^tk_[A-Za-z0-9_-]{43}$/),
    });
    const key = created.json.api_key as string;
    expect((await app.call("GET", "/v1/account", undefined, basic(key))).json).toEqual({ id: 3, balance_overdraft_allowed: true, reserved: 0, balance: 40 });
    expect((await app.call("GET", "/api/v1/account", undefined, bearer(key))).json.id).toBe(3);
    // The key is never answered again, and only the admin may create.
    expect(JSON.stringify((await app.admin("GET", "/admin/v1/accounts/3")).json)).not.toContain(key);
    expect((await app.call("POST", "/admin/v1/accounts", {}, basic(key))).status).toBe(403);
    expect((await app.admin("GET", "/admin/v1/accounts/3/ledger")).json).toMatchObject({
      consistent: true,
      entries: [{ entry: "opening", balance_change: 40, actor: "admin:admin" }],
    });
  });

  test("a body is optional; defaults are 0 and no overdraft; each account sees only its own orders", async () => {
    const app = await startTranslate();
    const a = (await app.admin("POST", "/admin/v1/accounts")).json;
    const b = (await app.admin("POST", "/admin/v1/accounts", { balance: 10 })).json;
    expect(a).toMatchObject({ id: 3, balance: 0, balance_overdraft_allowed: false });
    expect(b.id).toBe(4);
    const placed = await app.call("POST", "/v1/translate", { source_language: "en", target_languages: ["de"], text: "Hello" }, basic(b.api_key));
    expect(placed.status).toBe(200);
    expect((await app.call("GET", "/v1/orders", undefined, basic(a.api_key))).json).toEqual([]);
    expect((await app.call("GET", "/v1/orders", undefined, basic(b.api_key))).json).toHaveLength(1);
    const refused = await app.call("POST", "/v1/translate", { source_language: "en", target_languages: ["de"], text: "Hello" }, basic(a.api_key));
    expect(refused.json.code).toBe("INSUFFICIENT_FUNDS");
  });

  test("bad input gets the error body, never a 500", async () => {
    const app = await startTranslate();
    for (const body of [{ balance: 1.234 }, { balance: "5" }, { overdraft: 1 }, { api_key: "mine" }, [], "{"]) {
      const res = await app.admin("POST", "/admin/v1/accounts", body);
      expect(res.status).toBe(400);
      expect(Object.keys(res.json).sort()).toEqual(["code", "description", "parameters"]);
    }
    // Below zero only with overdraft: an account without it never gets there.
    const negative = await app.admin("POST", "/admin/v1/accounts", { balance: -5 });
    expect([negative.status, negative.json.parameters?.field]).toEqual([400, "balance"]);
    expect((await app.admin("POST", "/admin/v1/accounts", { balance: -5, overdraft: true })).status).toBe(201);
    expect((await app.admin("DELETE", "/admin/v1/accounts")).status).toBe(405);
    expect((await app.call("POST", "/admin/v1/accounts", {}, basic("tk_not-a-key"))).status).toBe(401);
  });
});

describe("POST /admin/v1/simulator/complete-now", () => {
  test("completes every open order now, with the simulator's translation, and leaves a human translator's alone", async () => {
    const app = await startTranslate();
    const placed = await app.customer("POST", "/v1/translate", { source_language: "en", target_languages: ["de", "fr", "is"], text: "Hello" });
    const [de, fr, is] = placed.json.orders.map((o: { id: number }) => o.id);
    expect((await app.translator("POST", `/translator/v1/orders/${is}/accept`)).status).toBe(200);
    const res = await app.admin("POST", "/admin/v1/simulator/complete-now");
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ completed: [de, fr] });
    const order = (await app.customer("GET", `/v1/orders/${de}`)).json;
    expect(order).toMatchObject({ status: "DONE", translator: "Simulator", target_text: "[de] Hello" });
    expect((await app.customer("GET", `/v1/orders/${is}`)).json.status).toBe("PROGRESS");
    expect((await app.admin("POST", "/admin/v1/simulator/complete-now")).json).toEqual({ completed: [] });
    expect(await app.consistent()).toBe(true);
  });

  test("a reopened order is done again", async () => {
    const app = await startTranslate();
    const id = (await app.customer("POST", "/v1/translate", { source_language: "en", target_languages: ["de"], text: "Hi" })).json.orders[0].id;
    await app.admin("POST", "/admin/v1/simulator/complete-now");
    expect((await app.admin("POST", `/admin/v1/orders/${id}/reopen`, { comment: "again" })).json.status).toBe("REVISION");
    expect((await app.admin("POST", "/admin/v1/simulator/complete-now")).json).toEqual({ completed: [id] });
  });
});
