import { describe, expect, test } from "bun:test";
import { basic, CUSTOMER, TRANSLATOR, translateConfig } from "../translate/setup";
import { AUTH, dashboardApp, MEMBER } from "./support";

async function app() {
  const a = await dashboardApp({ translate: translateConfig() });
  const order = async (text = "Hello world") => {
    const res = await a.call("POST", "/v1/translate", { source_language: "en", target_languages: ["de"], text }, basic(CUSTOMER));
    if (res.status !== 201 && res.status !== 200) throw new Error(`order: ${res.status} ${res.text}`);
    return res.json.orders[0].id as number;
  };
  return { ...a, order };
}

describe("the translation service in the dashboard", () => {
  test("a member reads accounts, an account's ledger and orders, and an order's detail", async () => {
    const a = await app();
    const id = await a.order();
    const accounts = await a.call("GET", "/ui/api/translate/accounts", undefined, a.member);
    expect(accounts.status).toBe(200);
    expect(accounts.json).toEqual([
      { id: 1, balance: 99.78, reserved: 0.22, balance_overdraft_allowed: false },
      { id: 2, balance: 5, reserved: 0, balance_overdraft_allowed: true },
    ]);
    const one = await a.call("GET", "/ui/api/translate/accounts/1", undefined, a.member);
    expect(one.status).toBe(200);
    expect(one.json.consistent).toBe(true);
    expect(one.json.entries.map((e: { entry: string }) => e.entry)).toEqual(["reserve", "opening"]);
    expect(one.json.orders).toEqual([expect.objectContaining({ id, status: "QUEUE", target_language: "de", price: 0.22 })]);
    const detail = await a.call("GET", `/ui/api/translate/orders/${id}`, undefined, a.member);
    expect(detail.json).toMatchObject({ id, account_id: 1, source_text: "Hello world", status: "QUEUE" });
  });

  test("any user works as a translator under their e-mail address: the queue, accept, complete; the price is spent once", async () => {
    const a = await app();
    const id = await a.order();
    const queue = await a.call("GET", "/ui/api/translate/queue", undefined, a.member);
    expect(queue.json.map((o: { id: number }) => o.id)).toEqual([id]);
    const accepted = await a.call("POST", `/ui/api/translate/orders/${id}/accept`, undefined, a.member);
    expect(accepted.status).toBe(200);
    expect(accepted.json).toMatchObject({ status: "PROGRESS", translator: MEMBER.email });
    // Held by the member: another translator (the admin, or a configured one) cannot complete it.
    expect((await a.call("POST", `/ui/api/translate/orders/${id}/complete`, { target_text: "Hallo" }, a.admin)).status).toBe(404);
    expect((await a.call("POST", `/translator/v1/orders/${id}/complete`, { target_text: "Hallo" }, basic(TRANSLATOR))).status).toBe(404);
    const done = await a.call("POST", `/ui/api/translate/orders/${id}/complete`, { target_text: "Hallo Welt" }, a.member);
    expect(done.json).toMatchObject({ status: "DONE", target_text: "Hallo Welt" });
    const again = await a.call("POST", `/ui/api/translate/orders/${id}/accept`, undefined, a.member);
    expect([again.status, again.json.code]).toEqual([400, 3]);
    const ledger = await a.call("GET", "/ui/api/translate/accounts/1", undefined, a.member);
    expect(ledger.json.account).toMatchObject({ balance: 99.78, reserved: 0 });
    expect(ledger.json.entries[0]).toMatchObject({ entry: "spend", actor: `translator:${MEMBER.email}` });
    expect((await a.call("GET", "/v1/orders/" + id, undefined, basic(CUSTOMER))).json.target_text).toBe("Hallo Welt");
  });

  test("admins top up, set balances and switch maintenance; members may not", async () => {
    const a = await app();
    const up = await a.call("POST", "/ui/api/translate/accounts/2/top-up", { amount: 10.5 }, a.admin);
    expect(up.json).toEqual({ id: 2, balance: 15.5, reserved: 0, balance_overdraft_allowed: true });
    expect((await a.call("PUT", "/ui/api/translate/accounts/2/balance", { balance: -3 }, a.admin)).json.balance).toBe(-3);
    const ledger = await a.call("GET", "/ui/api/translate/accounts/2", undefined, a.admin);
    expect(ledger.json.entries.map((e: { entry: string; actor: string }) => [e.entry, e.actor])).toEqual([
      ["set_balance", "admin:ada@example.com"],
      ["top_up", "admin:ada@example.com"],
      ["opening", "config"],
    ]);
    expect(ledger.json.consistent).toBe(true);

    expect((await a.call("PUT", "/ui/api/translate/maintenance", { maintenance: true }, a.admin)).json).toEqual({ maintenance: true });
    expect((await a.call("GET", "/v1/account", undefined, basic(CUSTOMER))).status).toBe(503);
    // The dashboard keeps working: it never goes through the customer API.
    expect((await a.call("GET", "/ui/api/translate/maintenance", undefined, a.member)).json).toEqual({ maintenance: true });
    expect((await a.call("PUT", "/ui/api/translate/maintenance", { maintenance: false }, a.admin)).json).toEqual({ maintenance: false });
    expect((await a.call("GET", "/v1/account", undefined, basic(CUSTOMER))).status).toBe(200);

    for (const [method, path, body] of [
      ["POST", "/ui/api/translate/accounts/1/top-up", { amount: 1 }],
      ["PUT", "/ui/api/translate/accounts/1/balance", { balance: 1 }],
      ["PUT", "/ui/api/translate/maintenance", { maintenance: true }],
    ] as const) {
      const res = await a.call(method, path, body, a.member);
      expect([path, res.status, res.json.code]).toEqual([path, 403, 7]);
    }
    expect((await a.call("GET", "/ui/api/translate/accounts/1", undefined, a.admin)).json.account.balance).toBe(100);
  });

  test("without a session, with an API key or from another origin: refused, nothing changed", async () => {
    const a = await app();
    const id = await a.order();
    for (const headers of [{}, AUTH, basic(CUSTOMER)]) {
      expect((await a.call("GET", "/ui/api/translate/accounts", undefined, headers)).status).toBe(401);
      expect((await a.call("POST", `/ui/api/translate/orders/${id}/accept`, undefined, headers)).status).toBe(401);
    }
    const evil = { ...a.admin, origin: "https://evil.example" };
    expect((await a.call("POST", `/ui/api/translate/orders/${id}/accept`, undefined, evil)).status).toBe(403);
    expect((await a.call("POST", "/ui/api/translate/accounts/1/top-up", { amount: 5 }, evil)).status).toBe(403);
    expect((await a.call("PUT", "/ui/api/translate/maintenance", { maintenance: true }, { cookie: a.admin.cookie! })).status).toBe(403);
    expect((await a.call("GET", `/ui/api/translate/orders/${id}`, undefined, a.admin)).json.status).toBe("QUEUE");
    expect((await a.call("GET", "/ui/api/translate/maintenance", undefined, a.admin)).json.maintenance).toBe(false);
  });

  test("bad input gets the dashboard's error body", async () => {
    const a = await app();
    const id = await a.order();
    await a.call("POST", `/ui/api/translate/orders/${id}/accept`, undefined, a.admin);
    const cases: [string, string, unknown, number][] = [
      ["GET", "/ui/api/translate/accounts/0", undefined, 400],
      ["GET", "/ui/api/translate/accounts/abc", undefined, 400],
      ["GET", "/ui/api/translate/accounts/99", undefined, 404],
      ["GET", "/ui/api/translate/orders/99", undefined, 404],
      ["GET", "/ui/api/translate/accounts?x=1", undefined, 400],
      ["POST", "/ui/api/translate/accounts/1/top-up", { amount: 0 }, 400],
      ["POST", "/ui/api/translate/accounts/1/top-up", { amount: 1.005 }, 400],
      ["POST", "/ui/api/translate/accounts/1/top-up", { amount: "lots" }, 400],
      ["POST", "/ui/api/translate/accounts/1/top-up", { amount: 1, extra: true }, 400],
      ["POST", "/ui/api/translate/accounts/1/top-up", "not json", 400],
      ["POST", "/ui/api/translate/accounts/99/top-up", { amount: 1 }, 404],
      ["PUT", "/ui/api/translate/accounts/1/balance", {}, 400],
      ["PUT", "/ui/api/translate/accounts/1/balance", { balance: 1e12 }, 400],
      ["PUT", "/ui/api/translate/maintenance", { maintenance: "maybe" }, 400],
      ["POST", `/ui/api/translate/orders/${id}/complete`, { target_text: "" }, 400],
      ["POST", `/ui/api/translate/orders/${id}/complete`, {}, 400],
      ["POST", `/ui/api/translate/orders/${id}/accept`, { x: 1 }, 400],
    ];
    for (const [method, path, body, status] of cases) {
      const res = await a.call(method, path, body, a.admin);
      expect([method, path, JSON.stringify(body), res.status, typeof res.json?.message]).toEqual([method, path, JSON.stringify(body), status, "string"]);
    }
    expect((await a.call("GET", `/ui/api/translate/orders/${id}`, undefined, a.admin)).json.status).toBe("PROGRESS");
    expect((await a.call("GET", "/ui/api/translate/accounts/1", undefined, a.admin)).json.account.balance).toBe(99.78);
  });
});
