/**
 * What a limited caller and a share link's holder may not do or see: a channel-scoped key acts as a
 * member (no send to a URL, no shared views), cancels only its own bulk jobs; a share link hides the
 * hook's signature and credential headers, and closes when its creator goes or is limited otherwise.
 */
import { expect, test } from "bun:test";
import { dashboardApp } from "../dashboard/support";
import { TOKEN } from "../helpers/app";

const SCOPED = { authorization: "Bearer scoped-token-0123456789" };
const FULL = { authorization: `Bearer ${TOKEN}` };
const KEYS = [
  { label: "test", token: TOKEN },
  { label: "stripe-bot", token: "scoped-token-0123456789", scopes: ["read", "act"], channels: ["stripe-*"] },
];

test("a channel-scoped key acts as a member: no bulk send to a URL, no shared view; it cancels only its own jobs", async () => {
  const app = await dashboardApp({ api_keys: KEYS });
  await app.catchHooks("stripe-live", 3);
  const send = await app.call("POST", "/v1/hooks/bulk", { query: "status:pending", action: "send", url: "http://127.0.0.1:9/x" }, SCOPED);
  expect(send.status).toBe(403);
  expect((await app.call("POST", "/v1/views", { name: "everyone", query: "status:pending", shared: true }, SCOPED)).status).toBe(403);
  expect((await app.call("POST", "/v1/views", { name: "mine", query: "status:pending" }, SCOPED)).status).toBe(200);

  // A job of the full key: the scoped key neither reads nor cancels it (not found), and it keeps running.
  const job = (await app.call("POST", "/v1/hooks/bulk", { query: "channel:stripe-live", action: "discard" }, FULL)).json;
  const cancel = await app.call("DELETE", `/v1/hooks/bulk/${job.id}`, undefined, SCOPED);
  expect(cancel.status).toBe(404);
  expect(JSON.stringify(cancel.json)).not.toContain("channel:stripe-live");
  expect((await app.call("GET", `/v1/hooks/bulk/${job.id}`, undefined, FULL)).json.state).not.toBe("cancelled");
});

test("a shared hook shows no signature, credential or cookie header, nor a credential in its query; its body is the hook's", async () => {
  const app = await dashboardApp();
  const body = '{"id":"evt_1","type":"invoice.paid"}';
  const caught = await app.call("POST", "/?channel=stripe&api_key=sk_live_query_secret", body, {
    "content-type": "application/json",
    "stripe-signature": "t=1700000000,v1=5257a869e7ecebeda32affa62cdca3fa51cad7e77a0e56ff536d0ce8e108d8bd",
    authorization: "Basic dXNlcjpzM2NyZXQ=",
    cookie: "session=abc123secret",
    "x-request-id": "req_42",
  });
  const id = caught.json.id as string;
  const link = (await app.call("POST", "/ui/api/share-links", { hook: id }, app.admin)).json;
  const shown = await app.call("GET", `/ui/api/shared/${link.token}`, undefined, {});
  expect(shown.status).toBe(200);
  const text = shown.text;
  for (const secret of ["5257a869e7ecebeda32affa62cdca3fa51cad7e77a0e56ff536d0ce8e108d8bd", "dXNlcjpzM2NyZXQ=", "abc123secret", "sk_live_query_secret"])
    expect(text).not.toContain(secret);
  expect(shown.json.hook.headers).toMatchObject({ "stripe-signature": "[redacted]", authorization: "[redacted]", "x-request-id": "req_42" });
  expect(Buffer.from(shown.json.hook.body, "base64").toString()).toBe(body);
  // The signed-in API still answers the hook as caught.
  expect((await app.call("GET", `/v1/hooks/${id}`)).json.headers["stripe-signature"]).toStartWith("t=1700000000,");
});

test("a link closes when its creator is removed, or is limited to other channels since it was made", async () => {
  const app = await dashboardApp();
  const [id] = await app.catchHooks("stripe-live", 1);
  const sam = { email: "sam@example.com", password: "limited member pass" };
  expect((await app.call("POST", "/ui/api/users", { ...sam, role: "member", channels: ["stripe-*"] }, app.admin)).status).toBe(200);
  const linkBy = async (who: Record<string, string>) => (await app.call("POST", "/ui/api/share-links", { hook: id }, who)).json.token as string;
  const opens = async (token: string) => (await app.call("GET", `/ui/api/shared/${token}`, undefined, {})).status;

  const samLink = await linkBy(await app.signIn(sam));
  const memberLink = await linkBy(app.member);
  expect([await opens(samLink), await opens(memberLink)]).toEqual([200, 200]);
  // Limited to another channel: Sam's link no longer opens; lifted again, it opens with the limit it was made with.
  await app.call("PUT", "/ui/api/users/sam@example.com/channels", { channels: ["orders"] }, app.admin);
  expect(await opens(samLink)).toBe(404);
  await app.call("PUT", "/ui/api/users/sam@example.com/channels", { channels: ["stripe-*"] }, app.admin);
  expect(await opens(samLink)).toBe(200);
  // Removed: no link of theirs opens; another user's still does.
  expect((await app.call("DELETE", "/ui/api/users/sam@example.com", undefined, app.admin)).status).toBe(200);
  expect([await opens(samLink), await opens(memberLink)]).toEqual([404, 200]);
});

test("a limited member sees only its channels' relays; a malformed channel escape is 404, not 500", async () => {
  const app = await dashboardApp({
    api_keys: [
      { label: "test", token: TOKEN },
      { label: "laptop-stripe", token: "relay-stripe-token-0123", scopes: ["relay"], channels: ["stripe-live"] },
      { label: "laptop-orders", token: "relay-orders-token-0123", scopes: ["relay"], channels: ["orders"] },
    ],
    users: [{ email: "sam@example.com", role: "member", password: "limited member pass", channels: ["stripe-*"] }],
  });
  const sam = await app.signIn({ email: "sam@example.com", password: "limited member pass" });
  const channelsOf = (snapshot: { upstream: { channel: string }[] }) => snapshot.upstream.map((r) => r.channel).sort();
  expect(channelsOf((await app.call("GET", "/ui/api/relays", undefined, app.admin)).json)).toEqual(["orders", "stripe-live"]);
  expect(channelsOf((await app.call("GET", "/ui/api/relays", undefined, sam)).json)).toEqual(["stripe-live"]);
  for (const path of ["/ui/api/channels/%E0", "/ui/api/channels/%E0/pause"]) {
    const res = await app.call(path.endsWith("pause") ? "POST" : "GET", path, undefined, sam);
    expect([path, res.status, res.json?.code]).toEqual([path, 404, 5]);
  }
});
