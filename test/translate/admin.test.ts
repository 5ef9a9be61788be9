import { describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestApp } from "../helpers/app";
import { startTarget } from "../helpers/target";
import { ADMIN, CUSTOMER, basic, translateConfig, startTranslate } from "./setup";

describe("admin API", () => {
  test("lists and reads accounts", async () => {
    const app = await startTranslate();
    const list = await app.admin("GET", "/admin/v1/accounts");
    expect(list.json).toEqual([
      { id: 1, balance_overdraft_allowed: false, reserved: 0, balance: 100 },
      { id: 2, balance_overdraft_allowed: true, reserved: 0, balance: 5 },
    ]);
    expect((await app.admin("GET", "/admin/v1/accounts/2")).json.balance).toBe(5);
    expect((await app.admin("GET", "/admin/v1/accounts/9")).status).toBe(404);
    expect((await app.admin("GET", "/admin/v1/accounts/x")).status).toBe(404);
  });

  test("tops up and sets balances, each a ledger entry", async () => {
    const app = await startTranslate();
    const topped = await app.admin("POST", "/admin/v1/accounts/1/top-up", { amount: 12.34 });
    expect(topped.status).toBe(200);
    expect(topped.json.balance).toBe(112.34);
    expect((await app.admin("PUT", "/admin/v1/accounts/1/balance", { balance: 7.5 })).json.balance).toBe(7.5);
    expect(await app.money()).toEqual({ balance: 7.5, reserved: 0 });
    const ledger = (await app.admin("GET", "/admin/v1/accounts/1/ledger")).json;
    expect(ledger.consistent).toBe(true);
    expect(ledger.entries).toMatchObject([
      { entry: "opening", balance_change: 100, balance: 100, actor: "config" },
      { entry: "top_up", balance_change: 12.34, balance: 112.34, actor: "admin:admin" },
      { entry: "set_balance", balance_change: -104.84, balance: 7.5, actor: "admin:admin" },
    ]);
  });

  test("refuses amounts with more than two decimals, non-positive top-ups and unknown accounts", async () => {
    const app = await startTranslate();
    const cents = await app.admin("POST", "/admin/v1/accounts/1/top-up", { amount: 1.005 });
    expect(cents.json).toMatchObject({ code: "INVALID_AMOUNT", parameters: { field: "amount" } });
    expect((await app.admin("POST", "/admin/v1/accounts/1/top-up", { amount: 0 })).json.code).toBe("INVALID_REQUEST");
    expect((await app.admin("POST", "/admin/v1/accounts/1/top-up", { amount: "5" })).json.code).toBe("INVALID_REQUEST");
    expect((await app.admin("POST", "/admin/v1/accounts/9/top-up", { amount: 5 })).status).toBe(404);
    expect((await app.admin("PUT", "/admin/v1/accounts/1/overdraft", { allowed: "yes" })).status).toBe(400);
    expect(await app.money()).toEqual({ balance: 100, reserved: 0 });
  });

  test("allows overdraft", async () => {
    const app = await startTranslate();
    const res = await app.admin("PUT", "/admin/v1/accounts/1/overdraft", { allowed: true });
    expect(res.json.balance_overdraft_allowed).toBe(true);
    await app.customer("POST", "/api/v1/translate", { source_language: "en", target_languages: ["de"], text: "x".repeat(6000) });
    expect(await app.money()).toEqual({ balance: -20, reserved: 120 });
  });

  test("reads any order and reopens a DONE one without a comment", async () => {
    const app = await startTranslate();
    await app.customer2("POST", "/api/v1/translate", { source_language: "en", target_languages: ["de"], text: "Hi" });
    expect((await app.admin("GET", "/admin/v1/orders/1")).json.source_text).toBe("Hi");
    expect((await app.admin("GET", "/admin/v1/orders/2")).status).toBe(404);
    await app.translator("POST", "/translator/v1/orders/1/accept");
    await app.translator("POST", "/translator/v1/orders/1/complete", { target_text: "Hallo" });
    const res = await app.admin("POST", "/admin/v1/orders/1/reopen");
    expect(res.json).toMatchObject({ status: "REVISION", comments: [] });
  });

  test("the config seeds an account once: a restart keeps what the admin API changed", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mailroom-translate-"));
    const path = join(dir, "restart.db");
    const one = createTestApp({ translate: translateConfig() }, { dbPath: path });
    await one.call("POST", "/admin/v1/accounts/1/top-up", { amount: 1 }, basic(ADMIN));
    one.close();
    const two = createTestApp({ translate: translateConfig() }, { dbPath: path });
    expect((await two.call("GET", "/v1/account", undefined, basic(CUSTOMER))).json.balance).toBe(101);
    two.close();
    rmSync(dir, { recursive: true, force: true });
  });
});

describe("POST /admin/v1/reset", () => {
  const png = () => {
    const b = new Uint8Array(33);
    b.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
    new DataView(b.buffer).setUint32(16, 2);
    new DataView(b.buffer).setUint32(20, 2);
    return Buffer.from(b).toString("base64");
  };

  test("clears orders, comments and ledger, puts the configured accounts back, and order ids start again from 1", async () => {
    const app = await startTranslate();
    const placed = await app.customer("POST", "/api/v1/translate", { source_language: "en", target_languages: ["is", "de"], text: "Hello world" });
    expect(placed.status).toBe(200);
    const [first] = placed.json.orders;
    expect((await app.translator("POST", `/translator/v1/orders/${first.id}/accept`)).status).toBe(200);
    const comment = await app.translator("POST", `/translator/v1/orders/${first.id}/comments`, {
      text: "see",
      attachments: [{ type: "image/png", data: png() }],
    });
    expect(comment.status).toBe(200);
    await app.admin("PUT", "/admin/v1/accounts/2/overdraft", { allowed: false });
    await app.admin("POST", "/admin/v1/accounts/2/top-up", { amount: 50 });

    const reset = await app.admin("POST", "/admin/v1/reset");
    expect(reset.status).toBe(200);
    expect(reset.json).toEqual([
      { id: 1, balance_overdraft_allowed: false, reserved: 0, balance: 100 },
      { id: 2, balance_overdraft_allowed: true, reserved: 0, balance: 5 },
    ]);
    expect((await app.customer("GET", `/api/v1/orders/${first.id}`)).status).toBe(404);
    expect((await app.customer("GET", "/api/v1/orders")).json).toEqual([]);
    const ledger = (await app.admin("GET", "/admin/v1/accounts/1/ledger")).json;
    expect(ledger.consistent).toBe(true);
    expect(ledger.entries).toMatchObject([{ entry: "opening", balance_change: 100, balance: 100, actor: "config" }]);
    const again = await app.customer("POST", "/api/v1/translate", { source_language: "en", target_languages: ["is"], text: "Hello world" });
    expect(again.json.orders.map((o: { id: number }) => o.id)).toEqual([1]);
    expect(await app.consistent(1)).toBe(true);
  });

  test("is for administrators only: a customer or translator key gets 403, none 401; GET is 405", async () => {
    const app = await startTranslate();
    await app.customer("POST", "/api/v1/translate", { source_language: "en", target_languages: ["de"], text: "Hi" });
    expect((await app.customer("POST", "/admin/v1/reset")).json.code).toBe("FORBIDDEN");
    expect((await app.translator("POST", "/admin/v1/reset")).json.code).toBe("FORBIDDEN");
    expect((await app.call("POST", "/admin/v1/reset", undefined, {})).status).toBe(401);
    const get = await app.admin("GET", "/admin/v1/reset");
    expect(get.status).toBe(405);
    expect(get.headers.get("allow")).toBe("POST");
    expect(await app.money()).toEqual({ balance: 99.96, reserved: 0.04 });
  });

  test("accounts the config no longer has are removed", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mailroom-reset-"));
    try {
      const storage = { path: join(dir, "mailroom.db") };
      const both = await startTarget({ translate: translateConfig(), storage });
      expect((await both.call("GET", "/admin/v1/accounts", undefined, basic(ADMIN))).json).toHaveLength(2);
      await both.stop();
      const one = await startTarget({ translate: translateConfig({ accounts: [{ id: 1, balance: 10, overdraft: false, api_keys: [CUSTOMER] }] }), storage });
      // Seeded the first time only: account 1 keeps its balance of 100 and account 2 stays, until the reset.
      expect((await one.call("GET", "/admin/v1/accounts", undefined, basic(ADMIN))).json).toHaveLength(2);
      const reset = await one.call("POST", "/admin/v1/reset", undefined, basic(ADMIN));
      expect(reset.json).toEqual([{ id: 1, balance_overdraft_allowed: false, reserved: 0, balance: 10 }]);
      await one.stop();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
