import { describe, expect, test } from "bun:test";
import { expectPassed, expectRefused, makeGuard, request } from "./support";

const basic = (user: string, password: string) => "Basic " + Buffer.from(`${user}:${password}`).toString("base64");

describe("basic-auth guard", () => {
  const { guard } = makeGuard({ kind: "basic-auth", username: "forms", password: "correct horse", realm: "contact" });

  test("the right credentials pass; the scheme is case-insensitive; a colon in the password is kept", async () => {
    await expectPassed(guard, request({ headers: { authorization: basic("forms", "correct horse") } }));
    await expectPassed(guard, request({ headers: { authorization: basic("forms", "correct horse").replace("Basic", "bAsIc") } }));
    const { guard: colon } = makeGuard({ kind: "basic-auth", username: "u", password: "a:b" });
    await expectPassed(colon, request({ headers: { authorization: basic("u", "a:b") } }));
  });

  test("a wrong password or user is refused with a challenge, naming neither", async () => {
    for (const auth of [basic("forms", "wrong"), basic("other", "correct horse")]) {
      const v = await expectRefused(guard, request({ headers: { authorization: auth } }), 401, /wrong user name or password/, ["correct horse"]);
      expect(!v.ok && v.headers).toEqual({ "www-authenticate": 'Basic realm="contact", charset="UTF-8"' });
    }
  });

  test("missing or malformed credentials are refused", async () => {
    await expectRefused(guard, request(), 401, /missing Authorization header/);
    await expectRefused(guard, request({ headers: { authorization: "Bearer abc" } }), 401, /Basic <base64/);
    await expectRefused(guard, request({ headers: { authorization: "Basic " + Buffer.from("nocolon").toString("base64") } }), 401, /Basic <base64/);
  });

  test("a password from the environment works; none at all is a config error", async () => {
    const { guard: env } = makeGuard({ kind: "basic-auth", username: "u", password_env: "PW" }, { env: { PW: "s3cret" } });
    await expectPassed(env, request({ headers: { authorization: basic("u", "s3cret") } }));
    expect(() => makeGuard({ kind: "basic-auth", username: "u" })).toThrow(/guards\[0\]\.password: give password or password_env/);
  });
});

describe("token guard", () => {
  const TOKEN = "tok_9f8e7d6c5b4a";

  test("by default: Authorization: Bearer <token>", async () => {
    const { guard } = makeGuard({ kind: "token", secret: TOKEN });
    await expectPassed(guard, request({ headers: { authorization: `Bearer ${TOKEN}` } }));
    await expectPassed(guard, request({ headers: { authorization: `bearer ${TOKEN}` } }));
    await expectRefused(guard, request({ headers: { authorization: `Bearer ${TOKEN}x` } }), 401, /wrong token in Authorization header/, [TOKEN]);
    await expectRefused(guard, request({ headers: { authorization: TOKEN } }), 401, /must be "Bearer <token>"/, [TOKEN]);
    await expectRefused(guard, request(), 401, /missing Authorization header/);
  });

  test("another header takes the whole value unless a scheme is set", async () => {
    const { guard } = makeGuard({ kind: "token", secret: TOKEN, header: "X-Gitlab-Token" });
    await expectPassed(guard, request({ headers: { "x-gitlab-token": TOKEN } }));
    await expectRefused(guard, request({ headers: { "x-gitlab-token": TOKEN.slice(1) } }), 401, /wrong token in X-Gitlab-Token header/);
    const { guard: schemed } = makeGuard({ kind: "token", secret: TOKEN, header: "x-auth", scheme: "Token" });
    await expectPassed(schemed, request({ headers: { "x-auth": `Token ${TOKEN}` } }));
  });

  test("a token in a query parameter", async () => {
    const { guard } = makeGuard({ kind: "token", secret: TOKEN, query: "key" });
    await expectPassed(guard, request({ query: `channel=c&key=${TOKEN}` }));
    await expectRefused(guard, request({ query: "channel=c&key=nope" }), 401, /wrong token in query parameter key/, [TOKEN]);
    await expectRefused(guard, request({ query: "channel=c", headers: { authorization: `Bearer ${TOKEN}` } }), 401, /missing query parameter key/);
  });

  test("no secret is a config error", () => {
    expect(() => makeGuard({ kind: "token" })).toThrow(/guards\[0\]\.secret: give secret or secret_env/);
  });
});
