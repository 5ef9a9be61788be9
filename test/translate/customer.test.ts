import { describe, expect, test } from "bun:test";
import { createTranslateApp, CUSTOMER, basic, bearer, startTranslate, PNG_1x2 } from "./setup";

/** An RFC 3339 time as Mailroom writes it (the real clock runs on every target). */
const TIMESTAMP = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

/** The body each revision takes for the same order: A a resource, B plain text. */
const order = (rev: "A" | "B", targets = ["is"], text = "Hello world") =>
  rev === "A"
    ? { source_language: "en", target_languages: targets, resource: { type: "text/plain", data: text } }
    : { source_language: "en", target_languages: targets, text };

describe.each([
  ["A", "/v1"],
  ["B", "/api/v1"],
] as const)("revision %s at %s", (rev, base) => {
  test("GET /account answers the account with Basic or Bearer", async () => {
    const app = await startTranslate();
    const res = await app.customer("GET", `${base}/account`);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ id: 1, balance_overdraft_allowed: false, reserved: 0, balance: 100 });
    const viaBearer = await app.call("GET", `${base}/account`, undefined, bearer(CUSTOMER));
    expect(viaBearer.json.id).toBe(1);
  });

  test("POST /translate creates one order per target, priced per pair, and reserves the money", async () => {
    const app = await startTranslate();
    const res = await app.customer("POST", `${base}/translate`, order(rev, ["is", "de"]));
    expect(res.status).toBe(200);
    expect(res.json.text).toBe("Hello world");
    expect(res.json.volume).toBe(11);
    expect(res.json.orders).toEqual([
      { id: 1, source_language: "en", target_language: "is", price: 0.28, created_at: TIMESTAMP },
      { id: 2, source_language: "en", target_language: "de", price: 0.22, created_at: TIMESTAMP },
    ]);
    expect(await app.money()).toEqual({ balance: 99.5, reserved: 0.5 });
    expect(await app.consistent()).toBe(true);
  });

  test("GET /orders/{ID} answers the order with context and comment attachments", async () => {
    const app = await startTranslate();
    const body = {
      ...order(rev),
      context: { tone: "FORMAL", limit: 40, category: "APPS" },
      comment: { text: "Keep it short", attachments: [{ type: "image/png", data: PNG_1x2 }] },
    };
    expect((await app.customer("POST", `${base}/translate`, body)).status).toBe(200);
    const res = await app.customer("GET", `${base}/orders/1`);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      id: 1,
      source_text: "Hello world",
      status: "QUEUE",
      source_language: "en",
      target_language: "is",
      volume: 11,
      price: 0.28,
      context: { tone: "FORMAL", limit: 40, category: "APPS" },
      created_at: TIMESTAMP,
    });
    expect(res.json.comments).toEqual([
      {
        id: 1,
        time: TIMESTAMP,
        role: "CUSTOMER",
        text: "Keep it short",
        attachments: [{ image: PNG_1x2, type: "image/png", name: "image-1.png", weight: 1, size: "1x2" }],
      },
    ]);
    expect(res.json.accepted_at).toBeUndefined();
    expect(res.json.target_text).toBeUndefined();
  });

  test("GET /orders/{ID} of another account, a missing or a non-numeric id is 404", async () => {
    const app = await startTranslate();
    await app.customer("POST", `${base}/translate`, order(rev));
    expect((await app.customer2("GET", `${base}/orders/1`)).status).toBe(404);
    expect((await app.customer("GET", `${base}/orders/99`)).status).toBe(404);
    const bad = await app.customer("GET", `${base}/orders/abc`);
    expect(bad.status).toBe(404);
    expect(bad.json.code).toBe("NOT_FOUND");
  });

  test("GET /orders pages from 0 with per_page (default 20), newest first", async () => {
    const app = createTranslateApp();
    for (let i = 0; i < 25; i++) {
      app.clock.advance(1000);
      await app.customer("POST", `${base}/translate`, order(rev, ["de"], `Text number ${i}`));
    }
    const first = await app.customer("GET", `${base}/orders`);
    expect(first.status).toBe(200);
    expect(first.json).toHaveLength(20);
    expect(first.json[0]).toEqual({
      id: 25,
      status: "QUEUE",
      snippet: "Text number 24",
      source_language: "en",
      target_language: "de",
      created_at: "2026-01-01T00:00:25.000Z",
    });
    const second = await app.customer("GET", `${base}/orders?page=1`);
    expect(second.json.map((o: { id: number }) => o.id)).toEqual([5, 4, 3, 2, 1]);
    const small = await app.customer("GET", `${base}/orders?page=2&per_page=3`);
    expect(small.json.map((o: { id: number }) => o.id)).toEqual([19, 18, 17]);
    expect((await app.customer("GET", `${base}/orders?page=9`)).json).toEqual([]);
    // Orders of other accounts never show.
    expect((await app.customer2("GET", `${base}/orders`)).json).toEqual([]);
  });

  test("GET /orders refuses a bad page or per_page with INVALID_REQUEST", async () => {
    const app = await startTranslate();
    for (const q of ["page=-1", "page=x", "per_page=0", "per_page=101", "unknown=1"]) {
      const res = await app.customer("GET", `${base}/orders?${q}`);
      expect(res.status).toBe(400);
      expect(res.json.code).toBe("INVALID_REQUEST");
    }
  });

  test("DELETE /orders/{ID} answers 204 with no body and gives the money back", async () => {
    const app = await startTranslate();
    await app.customer("POST", `${base}/translate`, order(rev, ["is", "de"]));
    const res = await app.customer("DELETE", `${base}/orders/1`);
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
    expect(await app.money()).toEqual({ balance: 99.78, reserved: 0.22 });
    expect((await app.customer("GET", `${base}/orders/1`)).status).toBe(404);
    expect((await app.customer("DELETE", `${base}/orders/1`)).status).toBe(404);
    expect(await app.consistent()).toBe(true);
  });

  test("DELETE of an accepted order is 400 WRONG_ORDER_STATUS and keeps the money reserved", async () => {
    const app = await startTranslate();
    await app.customer("POST", `${base}/translate`, order(rev));
    await app.translator("POST", "/translator/v1/orders/1/accept");
    const res = await app.customer("DELETE", `${base}/orders/1`);
    expect(res.status).toBe(400);
    expect(res.json).toEqual({
      code: "WRONG_ORDER_STATUS",
      description: expect.stringContaining("PROGRESS"),
      parameters: { status: "PROGRESS" },
    });
    expect(await app.money()).toEqual({ balance: 99.72, reserved: 0.28 });
  });

  test("GET /rates answers with or without credentials", async () => {
    const app = await startTranslate();
    const anonymous = await app.call("GET", `${base}/rates`, undefined, {});
    expect(anonymous.status).toBe(200);
    expect(anonymous.json).toContainEqual({ source_language: "en", target_language: "is", rate: 25 });
    expect(anonymous.json).toContainEqual({ source_language: "is", target_language: "en", rate: 20 });
    expect(anonymous.json.some((r: { source_language: string; target_language: string }) => r.source_language === r.target_language)).toBe(false);
    expect(anonymous.json).toHaveLength(61 * 60);
    const withKey = await app.customer("GET", `${base}/rates`);
    expect(withKey.json).toEqual(anonymous.json);
    expect((await app.call("GET", `${base}/rates`, undefined, basic("wrong-key-123"))).status).toBe(401);
  });

  test("with pairs_only, only the listed pairs have a rate", async () => {
    const app = await startTranslate({ rates: { pairs_only: true, pairs: [{ source: "en", target: "is", rate: 0.5 }] } });
    expect((await app.customer("GET", `${base}/rates`)).json).toEqual([{ source_language: "en", target_language: "is", rate: 0.5 }]);
    const res = await app.customer("POST", `${base}/translate`, order(rev, ["de"]));
    expect(res.json).toMatchObject({ code: "LANGUAGE_NOT_FOUND", parameters: { source_language: "en", target_language: "de" } });
  });

  test("HTML, JSON and .strings resources are counted by their translatable text", async () => {
    const app = await startTranslate();
    const cases: [string, string, number][] = [
      ["text/html", "<p class='x'>Hello <b>world</b></p><script>no()</script>", 11],
      ["application/json", JSON.stringify({ greeting: "Hello", n: 1 }), 5],
      ["text/x-objcstrings", '/* c */ "greeting" = "Hello";', 5],
    ];
    for (const [type, data, volume] of cases) {
      const res = await app.customer("POST", `${base}/translate`, { source_language: "en", target_languages: ["de"], resource: { type, data } });
      expect(res.status).toBe(200);
      expect(res.json.volume).toBe(volume);
    }
  });
});
