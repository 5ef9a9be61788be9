import { expect, test } from "bun:test";
import { createTestApp } from "../helpers/app";
import { startTarget } from "../helpers/target";

/** Revision A of the translation API shares /v1 and has its own keys; everything else there is ours. */
const TRANSLATION_ROOTS = new Set(["account", "orders", "translate", "rates", "calculate"]);
const RELAY_TOKEN = "relay-only-token-123456";
const RELAY = { authorization: `Bearer ${RELAY_TOKEN}` };

// The route table is read from the app in process; the requests go to the target (MAILROOM_TEST_TARGET).
test("a relay key gets 403 on every management route, the live stream and /metrics, even for its own channel; a key without scopes keeps full access", async () => {
  const t = await startTarget({
    api_keys: [
      { label: "test", token: "test-token-0123456789" },
      { label: "laptop", token: RELAY_TOKEN, scopes: ["relay"], channels: ["stripe"] },
    ],
  });
  const full = { authorization: "Bearer test-token-0123456789" };
  const [id] = await t.catchHooks("stripe", 1);
  const routes = (createTestApp().app.routes as { method: string; path: string }[]).filter(
    (r) => (r.path.startsWith("/v1/") && !TRANSLATION_ROOTS.has(r.path.split("/")[2]!)) || r.path === "/metrics",
  );
  expect(routes.length).toBeGreaterThanOrEqual(13);
  for (const { method, path } of routes) {
    const concrete = path.replace(":id", id!).replace(":name", "stripe");
    const res = await t.call(method, concrete, method === "GET" ? undefined : "{}", RELAY);
    expect([method, path, res.status, res.json?.code]).toEqual([method, path, 403, 7]);
    expect(res.json.message).toContain('API key "laptop" may only relay');
  }
  expect((await t.call("GET", "/v1/channels", undefined, full)).status).toBe(200);
  expect((await t.call("GET", `/v1/hooks/${id}`, undefined, full)).json.channel).toBe("stripe");
  // Nothing the relay key asked for changed anything.
  expect((await t.call("GET", `/v1/hooks/${id}`, undefined, full)).json.status).toBe("pending");
});

test("the config file's relay keys are checked: scopes need channels, channels need scopes, the only scope is relay", async () => {
  const { buildConfig } = await import("../../src/config/load");
  const problems = (key: Record<string, unknown>) => {
    try {
      buildConfig({ api_keys: [{ label: "k", token: "0123456789", ...key }] });
      return [];
    } catch (error) {
      return (error as { problems: { path: string; message: string }[] }).problems.map((p) => `${p.path}: ${p.message}`);
    }
  };
  expect(problems({ scopes: ["relay"], channels: ["stripe"] })).toEqual([]);
  expect(problems({ scopes: ["relay"] })).toEqual(["api_keys[0].channels: a relay key names the channels it may relay"]);
  expect(problems({ channels: ["stripe"] })[0]).toStartWith("api_keys[0].channels: only a key with scopes");
  expect(problems({ scopes: ["admin"], channels: ["stripe"] }).join("\n")).toContain("api_keys[0].scopes");
  expect(problems({ scopes: ["relay"], channels: ["Not A Channel"] }).join("\n")).toContain("api_keys[0].channels[0]");
});
