import { describe, expect, test } from "bun:test";
import { createTranslateApp, startTranslate } from "./setup";

/** An RFC 3339 time as Mailroom writes it (the real clock runs on every target). */
const TIMESTAMP = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

describe("order life cycle through the translator API", () => {
  test("QUEUE -> PROGRESS -> DONE -> REVISION -> PROGRESS -> DONE, with the money after each step", async () => {
    const app = createTranslateApp();
    const placed = await app.customer("POST", "/v1/translate", { source_language: "en", target_languages: ["is"], text: "x".repeat(1000) });
    expect(placed.json.orders[0].price).toBe(25);
    expect(await app.money()).toEqual({ balance: 75, reserved: 25 });

    const queue = await app.translator("GET", "/translator/v1/orders?status=QUEUE");
    expect(queue.json.map((o: { id: number }) => o.id)).toEqual([1]);
    expect(queue.json[0].resource).toEqual({ type: "text/plain", data: "x".repeat(1000) });

    app.clock.advance(60_000);
    const accepted = await app.translator("POST", "/translator/v1/orders/1/accept");
    expect(accepted.status).toBe(200);
    expect(accepted.json).toMatchObject({ status: "PROGRESS", accepted_at: "2026-01-01T00:01:00.000Z" });
    expect(await app.money()).toEqual({ balance: 75, reserved: 25 });
    expect((await app.translator("GET", "/translator/v1/orders?status=QUEUE")).json).toEqual([]);

    app.clock.advance(60_000);
    const done = await app.translator("POST", "/translator/v1/orders/1/complete", { target_text: "y".repeat(1000) });
    expect(done.json).toMatchObject({ status: "DONE", target_text: "y".repeat(1000), completed_at: "2026-01-01T00:02:00.000Z", translator: "Ana" });
    expect(await app.money()).toEqual({ balance: 75, reserved: 0 });
    const summary = (await app.customer("GET", "/api/v1/orders")).json[0];
    expect(summary).toMatchObject({ status: "DONE", accepted_at: "2026-01-01T00:01:00.000Z", completed_at: "2026-01-01T00:02:00.000Z" });

    const reopened = await app.admin("POST", "/admin/v1/orders/1/reopen", { comment: "The second paragraph is missing" });
    expect(reopened.json.status).toBe("REVISION");
    expect(reopened.json.comments).toMatchObject([{ role: "ADMIN", text: "The second paragraph is missing" }]);
    expect((await app.customer("GET", "/v1/orders/1")).json.status).toBe("REVISION");
    expect(await app.money()).toEqual({ balance: 75, reserved: 0 });
    expect((await app.customer("DELETE", "/v1/orders/1")).json.code).toBe("WRONG_ORDER_STATUS");

    app.clock.advance(60_000);
    expect((await app.translator2("POST", "/translator/v1/orders/1/accept")).json.status).toBe("PROGRESS");
    expect((await app.translator("POST", "/translator/v1/orders/1/complete", { target_text: "z" })).status).toBe(404);
    app.clock.advance(60_000);
    const again = await app.translator2("POST", "/translator/v1/orders/1/complete", { target_text: "z".repeat(1000) });
    expect(again.json).toMatchObject({ status: "DONE", translator: "Bo", completed_at: "2026-01-01T00:04:00.000Z", accepted_at: "2026-01-01T00:03:00.000Z" });
    // A revision costs nothing more: the price was spent once.
    expect(await app.money()).toEqual({ balance: 75, reserved: 0 });
    expect(await app.consistent()).toBe(true);

    const ledger = (await app.admin("GET", "/admin/v1/accounts/1/ledger")).json;
    expect(ledger.entries.map((e: { entry: string }) => e.entry)).toEqual(["opening", "reserve", "spend"]);
  });

  test("wrong transitions answer WRONG_ORDER_STATUS", async () => {
    const app = await startTranslate();
    await app.customer("POST", "/v1/translate", { source_language: "en", target_languages: ["is"], text: "Hi" });
    expect((await app.translator("POST", "/translator/v1/orders/1/complete", { target_text: "x" })).json.code).toBe("WRONG_ORDER_STATUS");
    expect((await app.admin("POST", "/admin/v1/orders/1/reopen")).json.code).toBe("WRONG_ORDER_STATUS");
    await app.translator("POST", "/translator/v1/orders/1/accept");
    const twice = await app.translator("POST", "/translator/v1/orders/1/accept");
    expect(twice.status).toBe(400);
    expect(twice.json).toMatchObject({ code: "WRONG_ORDER_STATUS", parameters: { status: "PROGRESS" } });
  });

  test("a translator sees open orders and its own, not another's", async () => {
    const app = await startTranslate();
    await app.customer("POST", "/v1/translate", { source_language: "en", target_languages: ["is", "de", "fr"], text: "Hi" });
    await app.translator("POST", "/translator/v1/orders/1/accept");
    await app.translator2("POST", "/translator/v1/orders/2/accept");
    const ids = async (call: typeof app.translator, q = "") => (await call("GET", `/translator/v1/orders${q}`)).json.map((o: { id: number }) => o.id);
    expect(await ids(app.translator)).toEqual([1, 3]);
    expect(await ids(app.translator2)).toEqual([2, 3]);
    expect(await ids(app.translator, "?status=PROGRESS")).toEqual([1]);
    expect((await app.translator("GET", "/translator/v1/orders/2")).status).toBe(404);
    expect((await app.translator("GET", "/translator/v1/orders/1")).status).toBe(200);
    expect((await app.translator("GET", "/translator/v1/orders?status=LOST")).status).toBe(400);
  });

  test("translators comment with images; customers read them", async () => {
    const app = await startTranslate();
    await app.customer("POST", "/api/v1/translate", { source_language: "en", target_languages: ["is"], text: "Hi" });
    const gif = btoa(String.fromCharCode(...Buffer.from("GIF89a"), 4, 0, 3, 0, 0, 0, 0));
    const res = await app.translator("POST", "/translator/v1/orders/1/comments", { text: "Formal or not?", attachments: [{ type: "image/gif", data: gif }] });
    expect(res.status).toBe(200);
    const order = (await app.customer("GET", "/api/v1/orders/1")).json;
    expect(order.comments).toEqual([
      {
        id: 1,
        time: TIMESTAMP,
        role: "TRANSLATOR",
        text: "Formal or not?",
        attachments: [{ image: gif, type: "image/gif", name: "image-1.gif", weight: 1, size: "4x3" }],
      },
    ]);
    const bad = await app.translator("POST", "/translator/v1/orders/1/comments", { text: "x", attachments: [{ type: "image/gif", data: "####" }] });
    expect(bad.json.code).toBe("INVALID_ATTACHMENT");
  });
});

describe("money", () => {
  test("without overdraft an order set that does not fit is refused whole and creates nothing", async () => {
    const app = await startTranslate({ accounts: [{ id: 1, balance: 0.5, api_keys: ["customer-key-1"] }] });
    // 20 characters: 0.50 to "is" (25/1000), 0.40 to "de" (20/1000): 0.90 > 0.50
    const res = await app.customer("POST", "/api/v1/translate", { source_language: "en", target_languages: ["is", "de"], text: "x".repeat(20) });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ code: "INSUFFICIENT_FUNDS", description: expect.any(String), parameters: { required: "0.9", balance: "0.5" } });
    expect((await app.customer("GET", "/api/v1/orders")).json).toEqual([]);
    expect(await app.money()).toEqual({ balance: 0.5, reserved: 0 });
    // Exactly the balance fits.
    expect((await app.customer("POST", "/api/v1/translate", { source_language: "en", target_languages: ["is"], text: "x".repeat(20) })).status).toBe(200);
    expect(await app.money()).toEqual({ balance: 0, reserved: 0.5 });
    expect((await app.customer("POST", "/api/v1/translate", { source_language: "en", target_languages: ["de"], text: "x" })).json.code).toBe(
      "INSUFFICIENT_FUNDS",
    );
    expect(await app.consistent()).toBe(true);
  });

  test("with overdraft the balance goes below zero, and the steps still add up", async () => {
    const app = await startTranslate();
    const money = () => app.money("customer-key-2");
    expect(await money()).toEqual({ balance: 5, reserved: 0 });
    await app.customer2("POST", "/api/v1/translate", { source_language: "en", target_languages: ["de", "fr"], text: "x".repeat(200) });
    expect(await money()).toEqual({ balance: -3, reserved: 8 });
    await app.customer2("DELETE", "/api/v1/orders/2");
    expect(await money()).toEqual({ balance: 1, reserved: 4 });
    await app.translator("POST", "/translator/v1/orders/1/accept");
    await app.translator("POST", "/translator/v1/orders/1/complete", { target_text: "y" });
    expect(await money()).toEqual({ balance: 1, reserved: 0 });
    expect(await app.consistent(2)).toBe(true);
  });

  test("turning overdraft off refuses orders once the balance is short", async () => {
    const app = await startTranslate();
    await app.admin("PUT", "/admin/v1/accounts/2/overdraft", { allowed: false });
    const res = await app.customer2("POST", "/api/v1/translate", { source_language: "en", target_languages: ["de"], text: "x".repeat(300) });
    expect(res.json.code).toBe("INSUFFICIENT_FUNDS");
    expect((await app.customer2("GET", "/v1/account")).json.balance_overdraft_allowed).toBe(false);
  });
});
