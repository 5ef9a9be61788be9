import { expect, test } from "bun:test";
import { createTestApp } from "../helpers/app";
import { startTarget } from "../helpers/target";

/** Revision A of the translation API shares /v1 and has its own keys; everything else there is ours. */
const TRANSLATION_ROOTS = new Set(["account", "orders", "translate", "rates", "calculate"]);
const RELAY_TOKEN = "relay-only-token-123456";
const RELAY = { authorization: `Bearer ${RELAY_TOKEN}` };

// The route table is read from the app in process; the requests go to the target (MAILROOM_TEST_TARGET).
test("a relay key gets 403 on every management route, the live stream, /metrics, the dashboard's API, /docs and /openapi, even for its own channel; a key without scopes keeps full access", async () => {
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
  // Routes that take no API key refuse it too: the dashboard's API, /docs, /openapi. The translation
  // API has tokens of its own and answers a relay key as any token it did not issue.
  const others = (createTestApp().app.routes as { method: string; path: string }[]).filter(
    (r) => r.method !== "ALL" && /^\/(ui\/api|docs|openapi)(\/|$)/.test(r.path),
  );
  expect(others.length).toBeGreaterThanOrEqual(60);
  for (const { method, path } of others) {
    const concrete = path.replace(":id", id!).replace(/:(name|label|email|action|file|handler)/g, "stripe");
    const res = await t.call(method, concrete, method === "GET" ? undefined : "{}", RELAY);
    expect([method, path, res.status, res.json?.code]).toEqual([method, path, 403, 7]);
  }
  for (const path of ["/api/v1/account", "/v1/account", "/translator/v1/orders"])
    expect([path, (await t.call("GET", path, undefined, RELAY)).status]).toEqual([path, 401]);
  expect((await t.call("GET", "/v1/channels", undefined, full)).status).toBe(200);
  expect((await t.call("GET", `/v1/hooks/${id}`, undefined, full)).json.channel).toBe("stripe");
  // Nothing the relay key asked for changed anything.
  expect((await t.call("GET", `/v1/hooks/${id}`, undefined, full)).json.status).toBe("pending");
});

test("the config file's relay keys are checked: scopes need channels, channels need scopes, the only scope is relay", async () => {
  const { buildConfig } = await import("../../src/load-config");
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

test("the relay endpoint says why a listener would be refused, on both listeners: wrong token, not a relay key, unknown channel, not the key's channel, who it is", async () => {
  const t = await startTarget({
    server: { public: { port: 0 } },
    api_keys: [
      { label: "test", token: "test-token-0123456789" },
      { label: "laptop", token: RELAY_TOKEN, scopes: ["relay"], channels: ["stripe"] },
    ],
  });
  const who = { "x-mailroom-listener": "laptop-id-0001", "x-mailroom-host": "dev-laptop", "x-mailroom-started": "1700000000000" };
  await t.catchHooks("stripe", 2);
  await t.catchHooks("github", 1);
  for (const base of [await t.url(), t.publicUrl()!]) {
    const ask = async (path: string, headers: Record<string, string>, method = "GET") => {
      const res = await fetch(`${base}/relay/v1/channels/${path}`, { method, headers });
      return { status: res.status, json: (await res.json()) as any };
    };
    expect(await ask("stripe", { ...RELAY, ...who })).toEqual({ status: 200, json: { channel: "stripe", waiting: 2, max_body: 10 * 1024 * 1024 } });
    const wrong = await ask("stripe", { authorization: "Bearer nope-nope-nope", ...who });
    expect([wrong.status, wrong.json.message]).toEqual([401, "invalid bearer token (wrong token?)"]);
    const full = await ask("stripe", { authorization: "Bearer test-token-0123456789", ...who });
    expect([full.status, full.json.message]).toEqual([403, 'API key "test" is not a relay key: the relay takes keys with scopes = ["relay"] only']);
    const unknown = await ask("gitlab", { ...RELAY, ...who });
    expect([unknown.status, unknown.json.message]).toEqual([404, 'unknown channel "gitlab" upstream']);
    const other = await ask("github", { ...RELAY, ...who });
    expect([other.status, other.json.message]).toEqual([403, 'API key "laptop" may not relay channel "github" (its channels: stripe)']);
    expect((await ask("stripe", RELAY)).status).toBe(400);
    expect((await ask("stripe", { ...RELAY, ...who }, "POST")).status).toBe(405);
    expect((await ask("Not-A-Name", { ...RELAY, ...who })).status).toBe(404);
  }
});

test("[[relays]] entries are checked: a URL, channel names, and a token or token_env", async () => {
  const { buildConfig } = await import("../../src/load-config");
  const problems = (relay: Record<string, unknown>, env: Record<string, string> = {}) => {
    try {
      buildConfig({ relays: [relay] }, env);
      return [];
    } catch (error) {
      return (error as { problems: { path: string; message: string }[] }).problems.map((p) => `${p.path}: ${p.message}`);
    }
  };
  expect(problems({ url: "https://hooks.example.com", channels: ["stripe"], token: "relay-token-0123" })).toEqual([]);
  expect(problems({ url: "https://hooks.example.com", channels: ["stripe"], token_env: "RELAY" }, { RELAY: "relay-token-0123" })).toEqual([]);
  expect(problems({ url: "https://hooks.example.com", channels: ["stripe"] })).toEqual(["relays[0]: give token or token_env: a relay key of upstream"]);
  expect(problems({ url: "https://hooks.example.com", channels: ["stripe"], token_env: "UNSET_RELAY_VAR" })).toEqual([
    "relays[0].token_env: environment variable UNSET_RELAY_VAR is not set",
  ]);
  expect(problems({ url: "ftp://x", channels: ["stripe"], token: "relay-token-0123" })).toEqual(["relays[0].url: must be an http:// or https:// URL"]);
  expect(problems({ url: "https://x", channels: [], token: "relay-token-0123" }).join()).toContain("relays[0].channels");
  // Plain http:// leaves the machine unencrypted: refused unless said so; loopback never leaves it.
  expect(problems({ url: "http://hooks.example.com", channels: ["stripe"], token: "relay-token-0123" })).toEqual([
    "relays[0].url: plain http:// to hooks.example.com, which is not this machine: the relay key and every hook would cross the network unencrypted, and anyone on the way could write hooks here. Use https://, or allow it on a network you trust with insecure = true",
  ]);
  expect(problems({ url: "http://hooks.example.com", channels: ["stripe"], token: "relay-token-0123", insecure: true })).toEqual([]);
  for (const url of ["http://127.0.0.1:8081", "http://localhost:8081", "http://[::1]:8081", "http://127.0.0.2"])
    expect([url, problems({ url, channels: ["stripe"], token: "relay-token-0123" })]).toEqual([url, []]);
});
