/**
 * A `kind = "scheme"` guard with `algorithm = "token"` may read its shared token from a query
 * parameter (`query = "key"`): that parameter is a credential, redacted in the stored hook and in
 * the refusal log as a token header is. Runs on every target (MAILROOM_TEST_TARGET).
 */
import { expect, test } from "bun:test";
import { startTarget } from "../helpers/target";

const config = {
  guards: [{ name: "qtok", kind: "scheme", algorithm: "token", query: "key", secret_env: "QUERY_TOKEN" }],
  channels: [{ name: "gated", guards: ["qtok"] }],
};

test("a token read from the query is redacted in stored hooks and refusals", async () => {
  const t = await startTarget(config, { env: { QUERY_TOKEN: "query-secret-77" } });
  const base = await t.url();
  const ok = await fetch(`${base}/?channel=gated&key=query-secret-77&x=1`, { method: "POST", body: "{}" });
  expect(ok.status).toBe(200);
  const { id } = (await ok.json()) as { id: string };
  const hook = (await t.call("GET", `/v1/hooks/${id}`)).json;
  expect(hook.query).toBe("channel=gated&key=[redacted]&x=1");
  expect(JSON.stringify(hook)).not.toContain("query-secret-77");

  const refused = await fetch(`${base}/?channel=gated&key=query-secret-7`, { method: "POST", body: "{}" });
  expect(refused.status).toBe(401);
  const listed = (await t.call("GET", "/v1/refusals")).json as Record<string, any>[];
  expect(listed[0]!.query).toBe("channel=gated&key=[redacted]");
  expect(JSON.stringify(listed)).not.toContain("query-secret-7");
  await t.stop();
}, 30_000);
