import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildConfig, type ConfigError } from "../../src/load-config";
import { createTestApp } from "../helpers/app";
import { startTarget, type Target } from "../helpers/target";

// Custom responses per channel. Runs on every target (MAILROOM_TEST_TARGET), except the restart
// test, which opens the same data file twice in process.

const HOOK_ID = /^[0-7][0-9a-hjkmnp-tv-z]{25}$/;

/** A sender as GitHub or Stripe behave: sends again on a 5xx, up to `attempts` times; the statuses it saw. */
async function retryingSender(t: Target, channel: string, body: string, attempts = 5): Promise<{ statuses: number[]; last: Response }> {
  const statuses: number[] = [];
  for (;;) {
    const res = await t.post(channel, body, { "content-type": "application/json" });
    statuses.push(res.status);
    if (res.status < 500 || statuses.length === attempts) return { statuses, last: res };
    await res.arrayBuffer();
  }
}

describe("custom responses", () => {
  let t: Target;
  beforeAll(async () => {
    t = await startTarget({
      channels: [
        {
          name: "flaky",
          response: {
            sequence: [
              { status: 500, body: "try again" },
              { status: 500, body: "try again" },
            ],
          },
        },
        { name: "fixed", response: { status: 202, headers: { "x-from": "config" } } },
      ],
    });
  });
  afterAll(() => t.stop());

  const hooksOf = async (channel: string) => (await t.call("GET", `/v1/hooks?channel=${channel}&limit=100`)).json as { id: string; body: string }[];

  test("a sender that retries on 5xx sees 500, 500, 200, and all three deliveries are stored", async () => {
    const { statuses, last } = await retryingSender(t, "flaky", '{"event":"push"}');
    expect(statuses).toEqual([500, 500, 200]);
    const { id } = (await last.json()) as { id: string };
    expect(id).toMatch(HOOK_ID);
    const hooks = await hooksOf("flaky");
    expect(hooks.length).toBe(3);
    expect(hooks[0]!.id).toBe(id);
    for (const h of hooks) expect(Buffer.from(h.body, "base64").toString()).toBe('{"event":"push"}');
    // After the sequence the response's own fields answer (here the default).
    expect((await t.post("flaky")).status).toBe(200);
    const view = await t.call("GET", "/v1/channels/flaky/response");
    expect(view.json).toEqual({
      channel: "flaky",
      source: "config",
      response: {
        sequence: [
          { status: 500, body: "try again" },
          { status: 500, body: "try again" },
        ],
      },
      answered: 4,
    });
  });

  test("a failing answer says what it was told to, and the hook is still stored", async () => {
    const res = await t.post("fixed", "x");
    expect(res.status).toBe(202);
    expect(res.headers.get("x-from")).toBe("config");
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    const { id } = (await res.json()) as { id: string };
    expect((await t.call("GET", `/v1/hooks/${id}`)).json.channel).toBe("fixed");
  });

  test("PUT applies to the next request; body, headers and status; {{id}} is the hook id; DELETE goes back to the default", async () => {
    expect((await t.call("GET", "/v1/channels/api-set/response")).json).toEqual({ channel: "api-set", source: "default", response: {}, answered: 0 });
    const put = await t.call("PUT", "/v1/channels/api-set/response", {
      status: 201,
      headers: { "X-Test": "yes", "content-type": "text/xml" },
      body: "<ok id='{{id}}'/>",
    });
    expect(put.status).toBe(200);
    expect(put.json.source).toBe("api");
    const res = await t.post("api-set", "{}");
    expect(res.status).toBe(201);
    expect(res.headers.get("x-test")).toBe("yes");
    expect(res.headers.get("content-type")).toBe("text/xml");
    const text = await res.text();
    const id = /id='([^']+)'/.exec(text)![1]!;
    expect((await t.call("GET", `/v1/hooks/${id}`)).status).toBe(200);
    expect((await t.call("GET", "/v1/channels/api-set/response")).json.answered).toBe(1);

    const reset = await t.call("DELETE", "/v1/channels/api-set/response");
    expect(reset.json).toEqual({ channel: "api-set", source: "default", response: {}, answered: 0 });
    const after = await t.post("api-set", "{}");
    expect(after.status).toBe(200);
    expect(((await after.json()) as { id: string }).id).toMatch(HOOK_ID);
  });

  test("store = false answers without storing; a sequence starts over when put again", async () => {
    await t.call("PUT", "/v1/channels/nostore/response", { status: 410, store: false, sequence: [{ status: 200, store: true }] });
    const first = await t.post("nostore", "a");
    expect(first.status).toBe(200);
    const stored = ((await first.json()) as { id: string }).id;
    const second = await t.post("nostore", "b");
    expect(second.status).toBe(410);
    expect(await second.json()).toEqual({});
    expect((await hooksOf("nostore")).map((h) => h.id)).toEqual([stored]);
    await t.call("PUT", "/v1/channels/nostore/response", { status: 410, store: false, sequence: [{ status: 200, store: true }] });
    expect((await t.post("nostore", "c")).status).toBe(200);
    expect((await hooksOf("nostore")).length).toBe(2);
  });

  test("a delayed answer holds up no other sender, and its hook is stored before the answer", async () => {
    await t.call("PUT", "/v1/channels/slow/response", { delay: "2s" });
    let slowDone = false;
    const slow = t.post("slow", "late").then((r) => ((slowDone = true), r));
    // Another sender is caught and answered while the slow one waits.
    expect((await t.post("quick", "now")).status).toBe(200);
    // The slow sender's hook is already there (answered only after the commit, then the delay).
    const [hook] = await (async () => {
      for (;;) {
        const hooks = await hooksOf("slow");
        if (hooks.length > 0 || slowDone) return hooks;
      }
    })();
    expect(slowDone).toBe(false);
    expect(hook).toBeDefined();
    const res = await slow;
    expect(res.status).toBe(200);
    expect(((await res.json()) as { id: string }).id).toBe(hook!.id);
  });

  test("a channel of the config file keeps its response: PUT and DELETE are 409", async () => {
    const put = await t.call("PUT", "/v1/channels/fixed/response", { status: 200 });
    expect(put.status).toBe(409);
    expect(put.json).toEqual({ code: 9, message: expect.stringContaining("config file"), details: [] });
    expect((await t.call("DELETE", "/v1/channels/fixed/response")).status).toBe(409);
  });

  test("bad settings get 400 in the error body, naming the field", async () => {
    const bad = [
      [{ status: 99 }, "status"],
      [{ status: "500" }, "status"],
      [{ delay: "10m" }, "delay"],
      [{ delay: "soon" }, "delay"],
      [{ headers: { "content-length": "5" } }, "content-length"],
      [{ headers: { "bad name": "x" } }, "headers"],
      [{ headers: { "x-a": "a\r\nx-b: b" } }, "headers"],
      [{ sequence: [{ status: 500, sequence: [] }] }, "sequence"],
      [{ stored: false }, "stored"],
    ] as const;
    for (const [body, field] of bad) {
      const res = await t.call("PUT", "/v1/channels/bad/response", body);
      expect({ body, status: res.status }).toEqual({ body, status: 400 });
      expect(res.json.code).toBe(3);
      expect(res.json.message).toContain(field);
    }
    expect((await t.call("PUT", "/v1/channels/bad/response", "{not json")).status).toBe(400);
    expect((await t.call("GET", "/v1/channels/bad/response")).json.source).toBe("default");
  });

  test("a custom body never runs in a browser on the dashboard's origin; cookies, policies, credential prompts and odd header values are refused", async () => {
    const html = { headers: { "content-type": "text/html" }, body: "<script>alert(1)</script>" };
    expect((await t.call("PUT", "/v1/channels/page/response", html)).status).toBe(200);
    const answer = await t.post("page", "{}");
    expect(answer.headers.get("content-type")).toBe("text/html");
    expect(answer.headers.get("content-security-policy")).toStartWith("sandbox; default-src 'none'");
    expect(answer.headers.get("x-content-type-options")).toBe("nosniff");
    const refused = [
      { "set-cookie": "mailroom_session=x" },
      { "Content-Security-Policy": "default-src *" },
      // A browser's password prompt on the dashboard's origin, and a policy pinned on it.
      { "WWW-Authenticate": 'Basic realm="Mailroom"' },
      { "strict-transport-security": "max-age=31536000" },
      { "x-a": "\u20ac" },
      { "x-a": "a\u00e9" },
    ];
    for (const headers of refused) {
      const res = await t.call("PUT", "/v1/channels/page2/response", { headers });
      expect({ headers, status: res.status, code: res.json?.code }).toEqual({ headers, status: 400, code: 3 });
    }
    // Nothing was set: the channel answers as usual, and no hook is stored twice by a 500.
    const plain = await t.post("page2", "{}");
    expect(plain.status).toBe(200);
  });

  test("deleting the channel drops a response set through the API", async () => {
    await t.call("PUT", "/v1/channels/gone/response", { status: 503 });
    expect((await t.post("gone")).status).toBe(503);
    expect((await t.call("DELETE", "/v1/channels/gone")).status).toBe(200);
    expect((await t.call("GET", "/v1/channels/gone/response")).json.source).toBe("default");
    expect((await t.post("gone")).status).toBe(200);
  });
});

test("the config file's response is checked like every other key", () => {
  const problems = (response: unknown) => {
    try {
      buildConfig({ channels: [{ name: "c", response }] });
      return [];
    } catch (error) {
      return (error as ConfigError).problems.map((p) => p.path);
    }
  };
  expect(problems({ status: 500, sequence: [{ status: 503 }] })).toEqual([]);
  expect(problems({ headers: { "Content-Length": "1" } })).toEqual(["channels[0].response.headers.Content-Length"]);
  expect(problems({ sequence: [{ delay: "6m" }] })).toEqual(["channels[0].response.sequence[0].delay"]);
  expect(problems({ status: 700 })).toEqual(["channels[0].response.status"]);
  expect(problems({ code: 500 })).toEqual(["channels[0].response.code"]);
});

test("a response set through the API survives a restart; its sequence starts over", async () => {
  const dir = mkdtempSync(join(tmpdir(), "mailroom-responses-"));
  try {
    const dbPath = join(dir, "mailroom.db");
    const first = createTestApp({}, { dbPath });
    await first.call("PUT", "/v1/channels/kept/response", { status: 200, sequence: [{ status: 503 }] });
    expect((await first.post("kept")).status).toBe(503);
    expect((await first.post("kept")).status).toBe(200);
    await first.writer.drain();
    first.close();

    const second = createTestApp({}, { dbPath });
    const view = await second.call("GET", "/v1/channels/kept/response");
    expect(view.json).toEqual({ channel: "kept", source: "api", response: { status: 200, sequence: [{ status: 503 }] }, answered: 0 });
    expect((await second.post("kept")).status).toBe(503);
    second.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a response stored before a header was reserved never sends it: no credential prompt or pinned policy on the dashboard's origin", async () => {
  const dir = mkdtempSync(join(tmpdir(), "mailroom-responses-"));
  try {
    const dbPath = join(dir, "mailroom.db");
    createTestApp({}, { dbPath }).close();
    // As an older version stored it (or an older instance sharing the database).
    const db = new Database(dbPath);
    const setting = {
      status: 401,
      headers: { "WWW-Authenticate": 'Basic realm="Mailroom"', "x-kept": "1" },
      sequence: [{ status: 200, headers: { "Strict-Transport-Security": "max-age=31536000", "x-step": "2" } }],
    };
    db.run("INSERT INTO channel_responses (channel, setting, updated_at) VALUES ('legacy', ?, 1)", [JSON.stringify(setting)]);
    db.close();
    const app = createTestApp({}, { dbPath });
    // The sequence's step first, then the setting itself.
    const first = await app.post("legacy");
    expect([first.status, first.headers.get("strict-transport-security"), first.headers.get("x-step")]).toEqual([200, null, "2"]);
    const second = await app.post("legacy");
    expect([second.status, second.headers.get("www-authenticate"), second.headers.get("x-kept")]).toEqual([401, null, "1"]);
    app.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
