import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { AUTH, startTarget, type Target } from "../helpers/target";

// Runs on every target (MAILROOM_TEST_TARGET), over a real socket.

const HOOK_ID = /^[0-7][0-9a-hjkmnp-tv-z]{25}$/;

describe("catching endpoint over a real socket", () => {
  let t: Target;
  let url = "";
  beforeAll(async () => {
    t = await startTarget({ hooks: { max_body: "1KB" } });
    url = await t.url();
  });
  afterAll(() => t.stop());

  const get = async (id: string) => (await t.call("GET", `/v1/hooks/${id}`)).json;

  test("keeps method, raw query, headers, exact body bytes and sender ip", async () => {
    const body = new Uint8Array([0, 255, 1, 254, 10, 13, 0x80]);
    const res = await fetch(`${url}/?channel=github&x=1&x=2&enc=%20a`, {
      method: "PUT",
      body,
      headers: { "content-type": "application/octet-stream", "x-thing": "a", cookie: "session=secret", "X-Upper": "B" },
    });
    expect(res.status).toBe(200);
    const { id } = (await res.json()) as { id: string };
    expect(id).toMatch(HOOK_ID);
    const hook = await get(id);
    expect(hook.method).toBe("PUT");
    expect(hook.channel).toBe("github");
    expect(hook.query).toBe("channel=github&x=1&x=2&enc=%20a");
    expect(Buffer.from(hook.body, "base64")).toEqual(Buffer.from(body));
    expect(hook.headers["x-thing"]).toBe("a");
    expect(hook.headers["x-upper"]).toBe("B");
    expect(hook.headers.cookie).toBeUndefined();
    expect(hook.content_type).toBe("application/octet-stream");
    expect(hook.payload).toBeNull();
    expect(hook.ip).toBe("127.0.0.1");
    expect(hook.status).toBe("pending");
    expect(hook.events).toEqual([]);
    expect(hook.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
    expect("finalized_at" in hook).toBe(false);
  });

  test("repeated headers are joined with a comma and a space", async () => {
    const headers = new Headers();
    headers.append("x-multi", "one");
    headers.append("x-multi", "two");
    const { id } = (await (await fetch(`${url}/?channel=multi`, { method: "POST", headers, body: "x" })).json()) as any;
    expect((await get(id)).headers["x-multi"]).toBe("one, two");
  });

  test("a request without a channel goes to the default channel", async () => {
    const res = await fetch(`${url}/?foo=bar`, { method: "POST", body: "{}" });
    const hook = await get(((await res.json()) as any).id);
    expect(hook.channel).toBe("default");
  });

  test("JSON object, url-encoded and multipart bodies are decoded into payload", async () => {
    const post = async (body: string | FormData, type?: string) => {
      const headers: Record<string, string> = type ? { "content-type": type } : {};
      const r = await fetch(`${url}/?channel=forms`, { method: "POST", body, headers });
      return (await get(((await r.json()) as any).id)).payload;
    };
    expect(await post('{"a":{"b":[1,true,null]}}', "application/json; charset=utf-8")).toEqual({ a: { b: [1, true, null] } });
    expect(await post("[1,2]", "application/json")).toBeNull();
    expect(await post("{broken", "application/json")).toBeNull();
    expect(await post("a=1&b=2&a=3&c=x%20y", "application/x-www-form-urlencoded")).toEqual({ a: ["1", "3"], b: "2", c: "x y" });
    const form = new FormData();
    form.append("name", "Ada");
    form.append("tag", "x");
    form.append("tag", "y");
    expect(await post(form)).toEqual({ name: "Ada", tag: ["x", "y"] });
    expect(await post("plain words", "text/plain")).toBeNull();
  });

  test("a bad channel name answers 400 and stores nothing", async () => {
    for (const bad of ["Upper", "a--b", "-a", "a_", "x".repeat(65), "sp ace"]) {
      const res = await fetch(`${url}/?channel=${encodeURIComponent(bad)}`, { method: "POST", body: "x" });
      expect(res.status).toBe(400);
      const body = (await res.json()) as any;
      expect(body.code).toBe(3);
      expect(body.details).toEqual([]);
      if (bad.length <= 64) expect(body.message).toBe(`channel names are lowercase letters and digits, words joined by - or _: got ${JSON.stringify(bad)}`);
      else expect(body.message).toStartWith("channel names are at most 64 characters: got 65");
    }
    const channels = (await t.call("GET", "/v1/channels")).json.map((c: any) => c.name);
    expect(channels).not.toContain("Upper");
    // A right-to-left override or a zero-width space in the name is written as an escape, so the reason reads as what was sent.
    const hidden = await fetch(`${url}/?channel=${encodeURIComponent("\u202eabc\u200b")}`, { method: "POST", body: "x" });
    expect(((await hidden.json()) as any).message).toEndWith('got "\\u202eabc\\u200b"');
  });

  test("bodies over max_body get 413 (declared length or chunked) and are not stored", async () => {
    const before = (await t.call("GET", "/v1/hooks?channel=big")).json.length;
    const declared = await fetch(`${url}/?channel=big`, { method: "POST", body: "x".repeat(2000) });
    expect(declared.status).toBe(413);
    expect(await declared.json()).toMatchObject({ code: 8 });
    const stream = new ReadableStream({
      start(c) {
        for (let i = 0; i < 10; i++) c.enqueue(new TextEncoder().encode("y".repeat(200)));
        c.close();
      },
    });
    const chunked = await fetch(`${url}/?channel=big`, { method: "POST", body: stream });
    expect(chunked.status).toBe(413);
    const ok = await fetch(`${url}/?channel=big`, { method: "POST", body: "z".repeat(1024) });
    expect(ok.status).toBe(200);
    expect((await t.call("GET", "/v1/hooks?channel=big")).json.length).toBe(before + 1);
  });

  test("a paused channel answers 503 with Retry-After; resuming catches again", async () => {
    await fetch(`${url}/?channel=quiet`, { method: "POST", body: "1" });
    expect((await t.call("POST", "/v1/channels/quiet/pause")).status).toBe(200);
    const refused = await fetch(`${url}/?channel=quiet`, { method: "POST", body: "2" });
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("60");
    expect(((await refused.json()) as any).code).toBe(14);
    await t.call("POST", "/v1/channels/quiet/resume");
    expect((await fetch(`${url}/?channel=quiet`, { method: "POST", body: "3" })).status).toBe(200);
    expect((await t.call("GET", "/v1/channels/quiet")).json.stats.pending).toBe("2");
  });

  test("GET / without a query is a landing page; HEAD and OPTIONS are not caught", async () => {
    const page = await fetch(`${url}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toContain("text/html");
    const html = await page.text();
    expect(html).toContain("Mailroom");
    expect(html).toContain('<a href="/ui/">Open the dashboard</a>');
    const options = await fetch(`${url}/?channel=cors`, { method: "OPTIONS" });
    expect(options.status).toBe(204);
    const head = await fetch(`${url}/?channel=cors`, { method: "HEAD" });
    expect(head.status).toBe(405);
    expect(head.headers.get("access-control-allow-origin")).toBe("*");
    expect((await t.call("GET", "/v1/channels")).json.map((c: any) => c.name)).not.toContain("cors");
  });

  test("GET with a query string is caught", async () => {
    const res = await fetch(`${url}/?channel=gets&token=abc`);
    expect(res.status).toBe(200);
    expect((await get(((await res.json()) as any).id)).method).toBe("GET");
  });

  test("concurrent senders are all committed, each with its own id, ids increasing", async () => {
    const ids = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        fetch(`${url}/?channel=burst`, { method: "POST", body: JSON.stringify({ i }), headers: { "content-type": "application/json" } })
          .then((r) => r.json() as Promise<{ id: string }>)
          .then((j) => j.id),
      ),
    );
    expect(new Set(ids).size).toBe(200);
    const channel = (await t.call("GET", "/v1/channels/burst")).json;
    expect(channel.stats.pending).toBe("200");
    const listed = (await t.call("GET", "/v1/hooks?channel=burst&limit=100")).json.map((h: any) => h.id);
    expect(listed).toEqual([...listed].sort().reverse());
  });
});

describe("sender ip behind a proxy", () => {
  test("trust_proxy takes the address the proxy added (right-most X-Forwarded-For, else last Forwarded for=); without it the socket address", async () => {
    for (const trust of [true, false]) {
      const t = await startTarget({ server: { trust_proxy: trust } });
      const url = await t.url();
      // The sender wrote 10.0.0.1 itself; the proxy appended the address it saw.
      const a = (await (await fetch(`${url}/?channel=p`, { method: "POST", headers: { "x-forwarded-for": "10.0.0.1, 203.0.113.7" } })).json()) as any;
      const b = (await (
        await fetch(`${url}/?channel=p`, { method: "POST", headers: { forwarded: 'for=10.0.0.1, for="[2001:db8::1]:4711";proto=https' } })
      ).json()) as any;
      const c = (await (await fetch(`${url}/?channel=p`, { method: "POST", headers: { "x-forwarded-for": "198.51.100.4" } })).json()) as any;
      expect((await t.call("GET", `/v1/hooks/${a.id}`)).json.ip).toBe(trust ? "203.0.113.7" : "127.0.0.1");
      expect((await t.call("GET", `/v1/hooks/${b.id}`)).json.ip).toBe(trust ? "2001:db8::1" : "127.0.0.1");
      expect((await t.call("GET", `/v1/hooks/${c.id}`)).json.ip).toBe(trust ? "198.51.100.4" : "127.0.0.1");
      await t.stop();
    }
  });
});

test("catching needs no credentials, the management API does", async () => {
  const t = await startTarget();
  const caught = await t.post("open", "x");
  expect(caught.status).toBe(200);
  expect((await t.call("GET", "/v1/hooks", undefined, {})).status).toBe(401);
  expect((await t.call("GET", "/v1/hooks", undefined, AUTH)).status).toBe(200);
});
