/**
 * A refusal made before the channel's guards are known (a mistyped channel name, a channel whose
 * guard was removed) still redacts every configured guard's credentials: a sender who got the
 * channel wrong but the token right must not leave the token readable in the refusal log.
 */
import { expect, test } from "bun:test";
import { startTarget } from "../helpers/target";

const config = {
  guards: [
    { name: "qtok", kind: "token", query: "key", secret_env: "QUERY_TOKEN" },
    { name: "htok", kind: "token", header: "X-Gate", secret_env: "HEADER_TOKEN" },
  ],
  channels: [{ name: "forms", guards: ["qtok", "htok"] }],
};

test("every guard's token is redacted in refusals made without the channel's guards", async () => {
  const t = await startTarget(config, { env: { QUERY_TOKEN: "q-secret-31", HEADER_TOKEN: "h-secret-32" } });
  const base = await t.url();
  const send = (channel: string) => fetch(`${base}/?channel=${channel}&key=q-secret-31`, { method: "POST", body: "{}", headers: { "x-gate": "h-secret-32" } });
  expect((await send("Forms")).status).toBe(400);
  const listed = (await t.call("GET", "/v1/refusals")).json as { query: string; headers: Record<string, string> }[];
  expect(listed.length).toBe(1);
  for (const r of listed) {
    expect(r.query).toEndWith("&key=[redacted]");
    expect(r.headers["x-gate"]).toBe("[redacted]");
  }
  expect(JSON.stringify(listed)).not.toContain("secret-3");
  await t.stop();
}, 30_000);
