import { describe, expect, test } from "bun:test";
import { startTranslate } from "./setup";

const resource = { type: "text/html", metadata: "web/index.html", data: "<p>Hello world</p>" };

describe("revision differences", () => {
  test("A shows the resource (with metadata) in translate and order responses; B does not", async () => {
    const app = await startTranslate();
    const a = await app.customer("POST", "/v1/translate", { source_language: "en", target_languages: ["de"], resource });
    expect(a.status).toBe(200);
    expect(a.json.resource).toEqual(resource);
    expect(a.json.text).toBe(resource.data);
    expect((await app.customer("GET", "/v1/orders/1")).json.resource).toEqual(resource);

    const bOrder = await app.customer("GET", "/api/v1/orders/1");
    expect(bOrder.status).toBe(200);
    expect(bOrder.json.resource).toBeUndefined();
    expect(bOrder.json.source_text).toBe(resource.data);

    const { metadata: _, ...plain } = resource;
    const b = await app.customer("POST", "/api/v1/translate", { source_language: "en", target_languages: ["de"], resource: plain });
    expect(b.status).toBe(200);
    expect(b.json.resource).toBeUndefined();
    expect(Object.keys(b.json).sort()).toEqual(["orders", "text", "volume"]);
  });

  test("B refuses resource.metadata as an unknown field", async () => {
    const app = await startTranslate();
    const res = await app.customer("POST", "/api/v1/translate", { source_language: "en", target_languages: ["de"], resource });
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ code: "INVALID_REQUEST", parameters: { field: "resource.metadata", reason: "unknown field" } });
  });

  test("text/plain resources exist in A only", async () => {
    const app = await startTranslate();
    const body = { source_language: "en", target_languages: ["de"], resource: { type: "text/plain", data: "Hi" } };
    expect((await app.customer("POST", "/v1/translate", body)).status).toBe(200);
    const b = await app.customer("POST", "/api/v1/translate", body);
    expect(b.status).toBe(400);
    expect(b.json).toMatchObject({ code: "UNSUPPORTED_RESOURCE_TYPE", parameters: { type: "text/plain" } });
  });

  test("B needs exactly one of text and resource; A takes either, the resource winning", async () => {
    const app = await startTranslate();
    const both = { source_language: "en", target_languages: ["de"], text: "Ignored text", resource: { type: "text/html", data: "<p>Hi</p>" } };
    const none = { source_language: "en", target_languages: ["de"] };
    for (const body of [both, none]) {
      const res = await app.customer("POST", "/api/v1/translate", body);
      expect(res.status).toBe(400);
      expect(res.json.code).toBe("TEXT_OR_RESOURCE");
    }
    expect((await app.customer("POST", "/api/v1/translate", { ...none, text: "Hi" })).status).toBe(200);

    const aBoth = await app.customer("POST", "/v1/translate", both);
    expect(aBoth.status).toBe(200);
    expect(aBoth.json.volume).toBe(2);
    const aText = await app.customer("POST", "/v1/translate", { ...none, text: "Deprecated" });
    expect(aText.status).toBe(200);
    expect(aText.json.resource).toEqual({ type: "text/plain", data: "Deprecated" });
    expect((await app.customer("POST", "/v1/translate", none)).json.code).toBe("TEXT_OR_RESOURCE");
  });

  test("sort exists in A only", async () => {
    const app = await startTranslate();
    for (const text of ["one", "two", "three"]) {
      await app.customer("POST", "/v1/translate", { source_language: "en", target_languages: ["de"], text });
    }
    const ids = async (path: string) => (await app.customer("GET", path)).json.map((o: { id: number }) => o.id);
    expect(await ids("/v1/orders")).toEqual([3, 2, 1]);
    expect(await ids("/v1/orders?sort=desc")).toEqual([3, 2, 1]);
    expect(await ids("/v1/orders?sort=asc")).toEqual([1, 2, 3]);
    expect((await app.customer("GET", "/v1/orders?sort=up")).status).toBe(400);
    const b = await app.customer("GET", "/api/v1/orders?sort=asc");
    expect(b.status).toBe(400);
    expect(b.json).toMatchObject({ code: "INVALID_REQUEST", parameters: { field: "sort" } });
  });

  test("POST /calculate prices without ordering in A; B answers it as an unknown route", async () => {
    const app = await startTranslate();
    const body = { source_language: "en", target_languages: ["is", "de"], resource: { type: "application/json", data: '{"a":"Hello world"}' } };
    const a = await app.customer("POST", "/v1/calculate", body);
    expect(a.status).toBe(200);
    expect(a.json).toEqual([
      { source_language: "en", target_language: "is", volume: 11, price: 0.28 },
      { source_language: "en", target_language: "de", volume: 11, price: 0.22 },
    ]);
    expect(await app.money()).toEqual({ balance: 100, reserved: 0 });
    expect((await app.customer("GET", "/v1/orders")).json).toEqual([]);

    for (const method of ["POST", "GET"]) {
      const b = await app.customer(method, "/api/v1/calculate", method === "POST" ? body : undefined);
      expect(b.status).toBe(404);
      expect(b.json.code).toBe("NOT_FOUND");
    }
  });

  test("calculate requires a resource and validates like translate", async () => {
    const app = await startTranslate();
    const noResource = await app.customer("POST", "/v1/calculate", { source_language: "en", target_languages: ["is"], text: "Hi" });
    expect(noResource.status).toBe(400);
    expect(noResource.json.code).toBe("INVALID_REQUEST");
    const badLang = await app.customer("POST", "/v1/calculate", {
      source_language: "xx",
      target_languages: ["is"],
      resource: { type: "text/plain", data: "Hi" },
    });
    expect(badLang.json).toMatchObject({ code: "LANGUAGE_NOT_FOUND", parameters: { language: "xx" } });
  });

  test("a completed order names its translator in A only", async () => {
    const app = await startTranslate();
    await app.customer("POST", "/v1/translate", { source_language: "en", target_languages: ["de"], text: "Hi" });
    await app.translator("POST", "/translator/v1/orders/1/accept");
    expect((await app.customer("GET", "/v1/orders/1")).json.translator).toBeUndefined();
    await app.translator("POST", "/translator/v1/orders/1/complete", { target_text: "Hallo" });
    expect((await app.customer("GET", "/v1/orders/1")).json.translator).toBe("Ana");
    expect((await app.customer("GET", "/api/v1/orders/1")).json.translator).toBeUndefined();
  });
});
