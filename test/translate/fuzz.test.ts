import { expect, test } from "bun:test";
import { startTranslate } from "./setup";

test("context.limit beyond a billion characters is refused", async () => {
  const app = await startTranslate();
  const res = await app.customer("POST", "/api/v1/translate", { source_language: "en", target_languages: ["de"], text: "x", context: { limit: 1e300 } });
  expect(res.json).toMatchObject({ code: "INVALID_REQUEST", parameters: { field: "context.limit" } });
});

test("bad input never answers 500", async () => {
  const app = await startTranslate({ rate_limit: { requests: 0 } });
  const bodies: unknown[] = [
    "[]",
    "1",
    '"x"',
    "null",
    "{}",
    "\u0000",
    "\xff\xfe",
    { source_language: 1, target_languages: [null], text: {} },
    { source_language: "en", target_languages: ["de"], resource: { type: "text/html", data: "<".repeat(10_000) } },
    { source_language: "en", target_languages: ["de"], resource: { type: "application/json", data: '"\\ud800"' } },
    { source_language: "en", target_languages: ["de"], resource: { type: "text/x-objcstrings", data: '"a" = "\\' } },
    {
      source_language: "en",
      target_languages: ["de"],
      text: "x",
      comment: { attachments: [{ type: "image/svg+xml", data: btoa("<svg width='1e999' height='-5'/>") }] },
    },
    { source_language: "en", target_languages: ["de"], text: "x", comment: { attachments: [{ type: "image/jpeg", data: btoa("\xff\xd8\xff\xc0") }] } },
  ];
  const paths = ["/v1/translate", "/api/v1/translate", "/v1/calculate", "/translator/v1/orders/1/complete", "/admin/v1/accounts/1/top-up"];
  for (const path of paths) {
    for (const body of bodies) {
      for (const call of [app.customer, app.translator, app.admin]) {
        const res = await call("POST", path, typeof body === "string" ? body : body);
        expect(res.status).toBeLessThan(500);
        if (res.status >= 400) expect(res.json.code).toEqual(expect.any(String));
      }
    }
  }
  for (const path of [
    "/v1/orders/%ZZ",
    "/v1/orders/99999999999999999999",
    "/api/v1/orders/-1",
    "/v1/orders/1.5",
    "/translator/v1/orders/0/accept",
    "/api/v1/orders?page=1e3",
  ]) {
    const res = await app.customer("GET", path);
    expect(res.status).toBeLessThan(500);
  }
});
