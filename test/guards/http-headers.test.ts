import { expect, test } from "bun:test";
import { startTarget } from "../helpers/target";

// Runs on every target (MAILROOM_TEST_TARGET).

test("refusals carry the guard's headers: WWW-Authenticate for basic-auth, Allow for method", async () => {
  const t = await startTarget({
    guards: [
      { name: "login", kind: "basic-auth", username: "u", password: "p4ssw0rd-long" },
      { name: "post-only", kind: "method", allow: ["POST"] },
    ],
    channels: [
      { name: "forms", guards: ["login"] },
      { name: "posts", guards: ["post-only"] },
    ],
  });
  const login = await t.post("forms", "x");
  expect(login.status).toBe(401);
  expect(login.headers.get("www-authenticate")).toContain("Basic");
  const put = await t.post("posts", "x", {}, "PUT");
  expect(put.status).toBe(405);
  expect(put.headers.get("allow")).toContain("POST");
});

test("check-config reports guard problems the schema cannot express", async () => {
  const { buildConfig, ConfigError } = await import("../../src/load-config");
  let problems: string[] = [];
  try {
    buildConfig({ guards: [{ name: "gh", kind: "github" }] });
  } catch (e) {
    problems = (e as InstanceType<typeof ConfigError>).problems.map((p) => p.path);
  }
  expect(problems.some((p) => p.startsWith("guards[0]"))).toBe(true);
});

test("a guard's credentials are stored redacted, everything else as received", async () => {
  const t = await startTarget({
    guards: [
      { name: "login", kind: "basic-auth", username: "u", password: "p4ssw0rd-long" },
      { name: "qkey", kind: "token", secret: "query-secret-123", query: "key" },
      { name: "hdr", kind: "token", secret: "header-secret-1", header: "X-Gitlab-Token" },
    ],
    channels: [{ name: "forms", guards: ["login", "qkey", "hdr"] }],
  });
  const res = await t.fetch("/?channel=forms&k%65y=query-secret-123&other=1&key2=x", {
    method: "POST",
    body: "x",
    headers: { authorization: `Basic ${btoa("u:p4ssw0rd-long")}`, "x-gitlab-token": "header-secret-1", "x-keep": "yes" },
  });
  expect(res.status).toBe(200);
  const hook = (await t.call("GET", `/v1/hooks/${((await res.json()) as any).id}`)).json;
  expect(hook.query).toBe("channel=forms&k%65y=[redacted]&other=1&key2=x");
  expect(hook.headers.authorization).toBe("[redacted]");
  expect(hook.headers["x-gitlab-token"]).toBe("[redacted]");
  expect(hook.headers["x-keep"]).toBe("yes");
  expect(JSON.stringify(hook)).not.toContain("secret");
  expect(JSON.stringify(hook)).not.toContain(btoa("u:p4ssw0rd-long"));
});
