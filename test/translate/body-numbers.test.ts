import { describe, expect, test } from "bun:test";
import { startTranslate } from "./setup";

// Runs on every target (MAILROOM_TEST_TARGET).

/**
 * Every number in a request body of every translation API is taken as JSON gives it: a string is
 * never read as a number ("0x10" was read as 16, "0" was refused as if it were a query parameter),
 * and a bad value is INVALID_REQUEST naming the body field. Nothing is stored.
 */
const order = { source_language: "en", target_languages: ["de"], text: "Hello" };
const NOT_NUMBERS = ["0", "-5", "1e10", "0x10", "16", "", " 1", null, true, [1], { n: 1 }];

describe("integer and number fields of request bodies", () => {
  test("context.limit takes a JSON integer from 1 to 1e9 only, in both revisions", async () => {
    const app = await startTranslate({ rate_limit: { requests: 0 } });
    for (const path of ["/v1/translate", "/api/v1/translate"]) {
      for (const limit of [...NOT_NUMBERS, 0, -5, 1.5, 1e10, 1e300]) {
        const res = await app.customer("POST", path, { ...order, context: { limit } });
        expect({ path, limit, status: res.status, body: res.json }).toEqual({
          path,
          limit,
          status: 400,
          body: {
            code: "INVALID_REQUEST",
            description: expect.stringMatching(/^invalid body: context\.limit: /),
            parameters: expect.objectContaining({ field: "context.limit" }),
          },
        });
      }
      const ok = await app.customer("POST", path, { ...order, context: { limit: 16 } });
      expect(ok.status).toBe(200);
    }
    const orders = (await app.customer("GET", "/api/v1/orders")).json;
    expect(orders).toHaveLength(2);
  });

  test("the admin API's amount and balance take JSON numbers only", async () => {
    const app = await startTranslate();
    for (const [method, path, field] of [
      ["POST", "/admin/v1/accounts/1/top-up", "amount"],
      ["PUT", "/admin/v1/accounts/1/balance", "balance"],
    ] as const) {
      for (const value of NOT_NUMBERS) {
        const res = await app.admin(method, path, { [field]: value });
        expect({ field, value, status: res.status, body: res.json }).toEqual({
          field,
          value,
          status: 400,
          body: {
            code: "INVALID_REQUEST",
            description: expect.stringMatching(new RegExp(`^invalid body: ${field}: `)),
            parameters: expect.objectContaining({ field }),
          },
        });
      }
    }
    expect(await app.money()).toEqual({ balance: 100, reserved: 0 });
    expect((await app.admin("GET", "/admin/v1/accounts/1/ledger")).json.entries).toHaveLength(1);
  });
});

describe("money inputs", () => {
  test("a top-up is positive with at most two decimals: 1e-9 and the like are refused, no ledger entry of 0 is written", async () => {
    const app = await startTranslate();
    for (const amount of [1e-9, 0.001, 0.009, 1.005, 12.345, 5e-324]) {
      const res = await app.admin("POST", "/admin/v1/accounts/1/top-up", { amount });
      expect({ amount, status: res.status, body: res.json }).toEqual({
        amount,
        status: 400,
        body: { code: "INVALID_AMOUNT", description: "amount: use at most two decimals", parameters: { field: "amount" } },
      });
    }
    for (const amount of [0, -0.01, -1e-9]) {
      const res = await app.admin("POST", "/admin/v1/accounts/1/top-up", { amount });
      expect({ amount, status: res.status, code: res.json.code, field: res.json.parameters.field }).toEqual({
        amount,
        status: 400,
        code: "INVALID_REQUEST",
        field: "amount",
      });
    }
    expect((await app.admin("GET", "/admin/v1/accounts/1/ledger")).json.entries).toHaveLength(1);
    for (const amount of [0.01, 0.1, 19.99, 1000000]) expect((await app.admin("POST", "/admin/v1/accounts/1/top-up", { amount })).status).toBe(200);
    expect(await app.money()).toEqual({ balance: 1000120.1, reserved: 0 });
  });

  test("a balance set by an admin has at most two decimals", async () => {
    const app = await startTranslate();
    for (const balance of [1e-9, -1e-9, 0.001, -7.125]) {
      const res = await app.admin("PUT", "/admin/v1/accounts/1/balance", { balance });
      expect({ balance, status: res.status, code: res.json.code }).toEqual({ balance, status: 400, code: "INVALID_AMOUNT" });
    }
    expect((await app.admin("GET", "/admin/v1/accounts/1/ledger")).json.entries).toHaveLength(1);
    expect((await app.admin("PUT", "/admin/v1/accounts/1/balance", { balance: -7.12 })).json.balance).toBe(-7.12);
  });
});
