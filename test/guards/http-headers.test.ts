import { expect, test } from "bun:test";
import { createTestApp } from "../helpers/app";

test("refusals carry the guard's headers: WWW-Authenticate for basic-auth, Allow for method", async () => {
  const t = createTestApp({
    guards: [
      { name: "login", kind: "basic-auth", username: "u", password: "p4ssw0rd-long" },
      { name: "post-only", kind: "method", allow: ["POST"] },
    ],
    channels: [{ name: "forms", guards: ["login"] }, { name: "posts", guards: ["post-only"] }],
  });
  const login = await t.app.handle(new Request("http://localhost/?channel=forms", { method: "POST", body: "x" }));
  expect(login.status).toBe(401);
  expect(login.headers.get("www-authenticate")).toContain("Basic");
  const put = await t.app.handle(new Request("http://localhost/?channel=posts", { method: "PUT", body: "x" }));
  expect(put.status).toBe(405);
  expect(put.headers.get("allow")).toContain("POST");
});

test("check-config reports guard problems the schema cannot express", async () => {
  const { buildConfig, ConfigError } = await import("../../src/config/load");
  let problems: string[] = [];
  try {
    buildConfig({ guards: [{ name: "gh", kind: "github" }] });
  } catch (e) {
    problems = (e as InstanceType<typeof ConfigError>).problems.map((p) => p.path);
  }
  expect(problems.some((p) => p.startsWith("guards[0]"))).toBe(true);
});
