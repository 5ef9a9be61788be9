import { afterAll, describe, expect, test } from "bun:test";
import { Validator } from "@seriousme/openapi-schema-validator";
import { createTestApp } from "../helpers/app";
import { createSchemaChecker, fetchDocuments, NAMES, operations } from "./support";

const app = createTestApp();
afterAll(() => app.close());
const docs = await fetchDocuments(app);

describe("OpenAPI documents", () => {
  test("GET /openapi/ lists every document, each served without credentials", () => {
    expect([...docs.keys()]).toEqual(NAMES);
  });

  test.each(NAMES)("%s is a valid OpenAPI 3.1 document", async (name) => {
    const doc = docs.get(name)!;
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(doc.openapi).toBe("3.1.0");
  });

  test.each(NAMES)("every schema of %s compiles as strict JSON Schema 2020-12", (name) => {
    const doc = docs.get(name)!;
    const check = createSchemaChecker(doc);
    for (const model of Object.keys(doc.components.schemas)) check.compile(["components", "schemas", model]);
    for (const [status, r] of Object.entries(doc.components.responses as Record<string, any>)) {
      for (const type of Object.keys(r.content ?? {})) check.compile(["components", "responses", status, "content", type, "schema"]);
    }
    for (const { path, method, op } of operations(doc)) {
      const at = ["paths", path, method.toLowerCase()];
      (op.parameters ?? []).forEach((_: unknown, i: number) => check.compile([...at, "parameters", String(i), "schema"]));
      for (const type of Object.keys(op.requestBody?.content ?? {})) check.compile([...at, "requestBody", "content", type, "schema"]);
      for (const [status, r] of Object.entries(op.responses as Record<string, any>)) {
        for (const type of Object.keys(r.content ?? {})) check.compile([...at, "responses", status, "content", type, "schema"]);
      }
    }
  });

  test("integer query parameters are documented as integers, without Elysia's coercion or error texts", () => {
    const list = docs.get("webhooks")!.paths["/v1/hooks"].get;
    const limit = list.parameters.find((p: any) => p.name === "limit");
    expect(limit.schema).toEqual({ minimum: 1, maximum: 100, default: 50, type: "integer" });
    expect(JSON.stringify([...docs.values()])).not.toContain('"error":"');
    expect(JSON.stringify([...docs.values()])).not.toContain('"field":"');
  });

  test("the fail body, the reopen body and the catching endpoint's channel are documented", () => {
    const hooks = docs.get("webhooks")!;
    const fail = hooks.paths["/v1/hooks/{id}/fail"].post;
    expect(fail.requestBody.required).toBe(true);
    expect(fail.requestBody.content["application/json"].schema.required).toEqual(["message"]);
    expect(hooks.paths["/v1/hooks/{id}/retry"].post.requestBody).toBeUndefined();
    expect(hooks.paths["/"].post.parameters[0].name).toBe("channel");
    const reopen = docs.get("translate-admin")!.paths["/admin/v1/orders/{id}/reopen"].post;
    expect(reopen.requestBody.required).toBe(false);
    expect(docs.get("translate-a")!.paths["/v1/orders/{id}"].delete.responses["204"].content).toBeUndefined();
  });

  test("webhook statuses are those the routes answer: no 404 from the lists, 409 only from transitions, 413 and 415 wherever a body is read", () => {
    const hooks = docs.get("webhooks")!;
    const statuses = (path: string, method: string) => Object.keys(hooks.paths[path][method].responses);
    expect(statuses("/v1/channels", "get")).toEqual(["200", "400", "401", "500"]);
    expect(statuses("/v1/hooks", "get")).toEqual(["200", "400", "401", "500"]);
    expect(statuses("/v1/hooks/{id}", "get")).toEqual(["200", "400", "401", "404", "500"]);
    expect(statuses("/v1/hooks/{id}", "delete")).toEqual(["200", "400", "401", "404", "413", "415", "500"]);
    expect(statuses("/v1/hooks/{id}/retry", "post")).toEqual(["200", "400", "401", "404", "409", "413", "415", "500"]);
    expect(statuses("/v1/channels/{name}/pause", "post")).toEqual(["200", "400", "401", "404", "413", "415", "500"]);
  });

  test("security schemes: bearer for webhooks (none to catch), HTTP Basic with the key as user name for translation", () => {
    const hooks = docs.get("webhooks")!;
    expect(hooks.components.securitySchemes).toEqual({ bearerAuth: expect.objectContaining({ type: "http", scheme: "bearer" }) });
    expect(hooks.security).toEqual([{ bearerAuth: [] }]);
    expect(hooks.paths["/"].post.security).toEqual([]);
    for (const name of NAMES.slice(1)) {
      expect(docs.get(name)!.components.securitySchemes.basicAuth).toMatchObject({ type: "http", scheme: "basic" });
    }
    expect(docs.get("translate-b")!.paths["/api/v1/rates"].get.security).toEqual([{}, { basicAuth: [] }, { bearerAuth: [] }]);
  });

  test("revision A and B differ where the spec says", () => {
    const a = docs.get("translate-a")!;
    const b = docs.get("translate-b")!;
    expect(a.paths["/v1/calculate"]).toBeDefined();
    expect(Object.keys(b.paths).some((p) => p.endsWith("/calculate"))).toBe(false);
    expect(a.paths["/v1/orders"].get.parameters.map((p: any) => p.name)).toEqual(["sort", "page", "per_page"]);
    expect(b.paths["/api/v1/orders"].get.parameters.map((p: any) => p.name)).toEqual(["page", "per_page"]);
    expect(a.components.schemas.Order.properties.resource).toBeDefined();
    expect(b.components.schemas.Order.properties.resource).toBeUndefined();
    expect(a.components.schemas.TranslateRequest.properties.resource.properties.metadata).toBeDefined();
  });

  test("the translation routes' own input checks are documented: bodies, queries and paging integers with their ranges", () => {
    const body = (doc: string, path: string, method: string) => docs.get(doc)!.paths[path][method].requestBody?.content["application/json"].schema;
    expect(body("translate-a", "/v1/translate", "post")).toEqual({ $ref: "#/components/schemas/TranslateRequest" });
    expect(body("translate-b", "/api/v1/translate", "post")).toEqual({ $ref: "#/components/schemas/TranslateRequest" });
    expect(body("translate-a", "/v1/calculate", "post")).toEqual({ $ref: "#/components/schemas/CalculateRequest" });
    expect(body("translate-translator", "/translator/v1/orders/{id}/complete", "post")).toEqual({ $ref: "#/components/schemas/CompleteRequest" });
    expect(body("translate-translator", "/translator/v1/orders/{id}/comments", "post")).toEqual({ $ref: "#/components/schemas/CommentRequest" });
    expect(body("translate-translator", "/translator/v1/orders/{id}/accept", "post")).toBeUndefined();
    expect(body("translate-admin", "/admin/v1/accounts/{id}/top-up", "post").required).toEqual(["amount"]);
    expect(body("translate-admin", "/admin/v1/accounts/{id}/balance", "put").required).toEqual(["balance"]);
    expect(body("translate-admin", "/admin/v1/accounts/{id}/overdraft", "put").properties.allowed).toEqual({ type: "boolean" });
    const work = docs.get("translate-translator")!.paths["/translator/v1/orders"].get.parameters;
    expect(work.map((p: any) => p.name)).toEqual(["status", "page", "per_page"]);
    expect(work[1].schema).toEqual({ type: "integer", minimum: 0, maximum: 1_000_000, default: 0 });
    expect(work[2].schema).toEqual({ type: "integer", minimum: 1, maximum: 100, default: 20 });
    expect(docs.get("translate-b")!.paths["/api/v1/orders"].get.responses["400"]).toBeDefined();
    // An id that is no positive integer is an unknown order (404), so the path says what ids look like.
    const id = docs.get("translate-a")!.paths["/v1/orders/{id}"].get.parameters[0];
    expect(id.schema).toEqual({ type: "string", pattern: "^[1-9][0-9]{0,14}$" });
    expect(id.description).toContain("404");
    expect(docs.get("translate-a")!.paths["/v1/orders/{id}"].get.responses["400"]).toBeUndefined();
  });

  test("an unknown document is a 404 in the webhook error format", async () => {
    const res = await app.call("GET", "/openapi/nope.json", undefined, {});
    expect(res.status).toBe(404);
    expect(res.json).toMatchObject({ code: 5, details: [] });
  });
});
