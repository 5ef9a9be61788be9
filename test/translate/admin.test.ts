import { describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTestApp } from "../helpers/app";
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
