import { bodyPreview } from "../../src/hooks/preview";
import { describe, expect, test } from "bun:test";
import { AUTH, startTarget } from "../helpers/target";

// Runs on every target (MAILROOM_TEST_TARGET): what is asserted here is what a user sees over HTTP.

const CHANNEL_KEYS = ["guards", "name", "paused", "stats"];
/** The spec's Hook properties, and no other (extensions only with include=extensions). */
const HOOK_KEYS = ["body", "channel", "content_type", "created_at", "events", "headers", "id", "ip", "method", "payload", "query", "status"];

async function setup(raw: Record<string, any> = {}) {
  const t = await startTarget(raw);
  const send = async (channel: string, body: unknown = { n: 1 }) => {
    const res = await t.post(channel, JSON.stringify(body), { "content-type": "application/json" });
    return ((await res.json()) as { id: string }).id;
  };
  const stats = async (channel: string) => (await t.call("GET", `/v1/channels/${channel}`)).json.stats;
  return { t, send, stats };
}

describe("authentication", () => {
  const routes: [string, string][] = [
    ["GET", "/v1/channels"],
    ["GET", "/v1/channels/a"],
    ["DELETE", "/v1/channels/a"],
    ["POST", "/v1/channels/a/pause"],
    ["POST", "/v1/channels/a/resume"],
    ["GET", "/v1/hooks"],
    ["GET", "/v1/hooks/01aaaaaaaaaaaaaaaaaaaaaaaa"],
    ["DELETE", "/v1/hooks/01aaaaaaaaaaaaaaaaaaaaaaaa"],
    ["POST", "/v1/hooks/01aaaaaaaaaaaaaaaaaaaaaaaa/discard"],
    ["POST", "/v1/hooks/01aaaaaaaaaaaaaaaaaaaaaaaa/retry"],
    ["POST", "/v1/hooks/01aaaaaaaaaaaaaaaaaaaaaaaa/process"],
    ["POST", "/v1/hooks/01aaaaaaaaaaaaaaaaaaaaaaaa/fail"],
    ["GET", "/v1/hooks?limit=0"],
  ];
  test("every operation answers 401 with WWW-Authenticate: Bearer when the token is missing or wrong", async () => {
    const { t } = await setup();
    for (const [method, path] of routes) {
      for (const headers of [{}, { authorization: "Bearer wrong-token-xxxxxxxx" }, { authorization: "Basic dGVzdDo=" }] as Record<string, string>[]) {
        const res = await t.call(method, path, undefined, headers);
        expect(res.status).toBe(401);
        expect(res.headers.get("www-authenticate")).toBe("Bearer");
        expect(res.json).toEqual({ code: 16, message: expect.any(String), details: [] });
        expect(res.text).not.toContain("test-token");
      }
    }
  });

  test("a token configured by its SHA-256 works, and events name the key's label", async () => {
    const hash = new Bun.CryptoHasher("sha256").update("hashed-token-123").digest("hex");
    const { t, send } = await setup({ api_keys: [{ label: "ci", token_sha256: hash }] });
    const id = await send("x");
    const res = await t.call("POST", `/v1/hooks/${id}/discard`, undefined, { authorization: "Bearer hashed-token-123" });
    expect(res.status).toBe(200);
    expect(res.json.events[0].actor).toBe("api:ci");
  });
});

describe("channels", () => {
  test("list sorted by name with exact properties; get; 404; 400 on a bad name", async () => {
    const { t, send } = await setup({ channels: [{ name: "zeta" }] });
    await send("beta");
    await send("alpha");
    const list = (await t.call("GET", "/v1/channels")).json;
    expect(list.map((c: any) => c.name)).toEqual(["alpha", "beta", "zeta"]);
    for (const c of list) expect(Object.keys(c).sort()).toEqual(CHANNEL_KEYS);
    expect((await t.call("GET", "/v1/channels/alpha")).json).toEqual({
      name: "alpha",
      paused: false,
      guards: [],
      stats: { pending: "1", handled: "0", failed: "0", discarded: "0" },
    });
    const missing = await t.call("GET", "/v1/channels/nope");
    expect(missing.status).toBe(404);
    expect(missing.json.code).toBe(5);
    const bad = await t.call("GET", "/v1/channels/Bad_");
    expect(bad.status).toBe(400);
    expect(bad.json.code).toBe(3);
    expect(bad.json.message).toContain("name");
    expect((await t.call("GET", `/v1/channels/${"a".repeat(65)}`)).status).toBe(400);
  });

  test("pause and resume are idempotent and return the channel; unknown channel 404", async () => {
    const { t, send } = await setup();
    await send("c");
    for (let i = 0; i < 2; i++) expect((await t.call("POST", "/v1/channels/c/pause")).json.paused).toBe(true);
    for (let i = 0; i < 2; i++) expect((await t.call("POST", "/v1/channels/c/resume")).json.paused).toBe(false);
    expect((await t.call("POST", "/v1/channels/none/pause")).status).toBe(404);
    expect((await t.call("POST", "/v1/channels/none/resume")).status).toBe(404);
  });

  test("delete removes the channel and all its hooks; a later hook creates it again", async () => {
    const { t, send } = await setup();
    const id = await send("gone");
    await send("kept");
    expect((await t.call("DELETE", "/v1/channels/gone")).json).toEqual({});
    expect((await t.call("GET", "/v1/channels/gone")).status).toBe(404);
    expect((await t.call("GET", `/v1/hooks/${id}`)).status).toBe(404);
    expect((await t.call("DELETE", "/v1/channels/gone")).status).toBe(404);
    await send("gone");
    expect((await t.call("GET", "/v1/channels/gone")).json.stats.pending).toBe("1");
    expect((await t.call("GET", "/v1/channels/kept")).json.stats.pending).toBe("1");
  });

  test("deleting a paused channel forgets the pause; configured channels come back empty", async () => {
    const { t, send } = await setup({ channels: [{ name: "conf" }] });
    await send("conf");
    await t.call("POST", "/v1/channels/conf/pause");
    await t.call("DELETE", "/v1/channels/conf");
    expect((await t.call("GET", "/v1/channels/conf")).json).toMatchObject({ paused: false, stats: { pending: "0" } });
  });
});

describe("hooks: list and paging", () => {
  test("newest first; after = last id of the previous page; a short page is the last", async () => {
    const { t, send } = await setup();
    const ids: string[] = [];
    for (let i = 0; i < 23; i++) {
      ids.push(await send(i % 2 ? "odd" : "even", { i }));
    }
    const seen: string[] = [];
    let after = "";
    for (;;) {
      const page = (await t.call("GET", `/v1/hooks?limit=5${after ? `&after=${after}` : ""}`)).json as any[];
      seen.push(...page.map((h) => h.id));
      if (page.length < 5) break;
      after = page[page.length - 1].id;
    }
    expect(seen).toEqual([...ids].reverse());
    const odd = (await t.call("GET", "/v1/hooks?channel=odd&limit=100")).json;
    expect(odd.map((h: any) => h.id)).toEqual(ids.filter((_, i) => i % 2).reverse());
    expect((await t.call("GET", "/v1/hooks")).json.length).toBe(23);
    for (const h of odd) expect(Object.keys(h).sort()).toEqual(HOOK_KEYS);
  });

  test("fields=summary: the same page without body, payload, headers and events, with the body's size", async () => {
    const { t, send } = await setup();
    await send("sum", { i: 1 });
    const res = await t.post("sum", new Uint8Array([0, 255, 1, 2, 3]), { "content-type": "application/octet-stream; x=1" });
    const binary = ((await res.json()) as { id: string }).id;
    await t.call("POST", `/v1/hooks/${binary}/discard`);
    // A summary carries the extension fields event_type and verified (when known): compared with the hooks as include=extensions shows them.
    const full = (await t.call("GET", "/v1/hooks?channel=sum&include=extensions")).json as any[];
    const summaries = (await t.call("GET", "/v1/hooks?channel=sum&fields=summary")).json as any[];
    expect(summaries.map((h) => h.id)).toEqual(full.map((h) => h.id));
    for (const [i, h] of summaries.entries()) {
      expect(Object.keys(h).sort()).toEqual(
        ["channel", "content_type", "created_at", "event_type", "finalized_at", "id", "ip", "method", "preview", "query", "size", "status", "verified"].filter(
          (k) => (k !== "finalized_at" || full[i].finalized_at) && (k !== "verified" || full[i].verified !== undefined),
        ),
      );
      // `contract` (an extension) is known only once the check ran after the catch; summaries leave it out.
      const { body, payload, headers, events, contract, ...rest } = full[i];
      expect(h).toEqual({ ...rest, size: Buffer.from(body, "base64").byteLength, preview: bodyPreview(Buffer.from(body, "base64")) });
    }
    expect(summaries[0]).toMatchObject({ id: binary, status: "discarded", size: 5, content_type: "application/octet-stream" });
    // Filters and paging as without it.
    expect((await t.call("GET", `/v1/hooks?channel=sum&fields=summary&status=pending&after=${binary}`)).json.map((h: any) => h.id)).toEqual([full[1].id]);
  });

  test("default limit is 50; status filter; channel+status+after together", async () => {
    const { t, send } = await setup();
    const ids: string[] = [];
    for (let i = 0; i < 60; i++) ids.push(await send("many", { i }));
    expect((await t.call("GET", "/v1/hooks?channel=many")).json.length).toBe(50);
    for (const id of ids.slice(0, 10)) await t.call("POST", `/v1/hooks/${id}/discard`);
    const discarded = (await t.call("GET", "/v1/hooks?status=discarded&limit=4")).json.map((h: any) => h.id);
    expect(discarded).toEqual(ids.slice(6, 10).reverse());
    const next = (await t.call("GET", `/v1/hooks?channel=many&status=discarded&after=${discarded[3]}`)).json.map((h: any) => h.id);
    expect(next).toEqual(ids.slice(0, 6).reverse());
    expect((await t.call("GET", "/v1/hooks?status=pending&channel=nobody")).json).toEqual([]);
  });

  test("bad parameters answer 400 naming the field", async () => {
    const { t } = await setup();
    const cases: [string, string][] = [
      ["limit=0", "limit"],
      ["limit=101", "limit"],
      ["limit=abc", "limit"],
      ["limit=1.5", "limit"],
      ["status=done", "status"],
      ["after=not-an-id", "after"],
      ["after=01AAAAAAAAAAAAAAAAAAAAAAAA", "after"],
      ["channel=Bad!", "channel"],
      ["bogus=1", "bogus"],
      ["fields=body", "fields"],
    ];
    for (const [query, field] of cases) {
      const res = await t.call("GET", `/v1/hooks?${query}`);
      expect(res.status).toBe(400);
      expect(res.json.code).toBe(3);
      expect(res.json.details).toEqual([]);
      expect(res.json.message).toContain(field);
    }
    // Query values are echoed, in the words check-config uses.
    expect((await t.call("GET", "/v1/hooks?channel=GitHub")).json.message).toBe(
      'invalid query: channel: channel names are lowercase letters and digits, words joined by - or _, at most 64 characters: got "GitHub"',
    );
  });
});

describe("hooks: get, delete, transitions, events, stats", () => {
  test("get and delete; 404 for unknown ids, 400 for malformed ids", async () => {
    const { t, send, stats } = await setup();
    const id = await send("d");
    expect((await t.call("GET", `/v1/hooks/${id}`)).json.id).toBe(id);
    expect((await t.call("GET", "/v1/hooks/NOTANID")).status).toBe(400);
    expect((await t.call("GET", "/v1/hooks/01aaaaaaaaaaaaaaaaaaaaaaaa")).status).toBe(404);
    expect((await t.call("DELETE", `/v1/hooks/${id}`)).json).toEqual({});
    expect((await t.call("GET", `/v1/hooks/${id}`)).status).toBe(404);
    expect((await t.call("DELETE", `/v1/hooks/${id}`)).status).toBe(404);
    expect(await stats("d")).toEqual({ pending: "0", handled: "0", failed: "0", discarded: "0" });
  });

  test("process: pending -> handled with event and finalized_at; refused from other states", async () => {
    const { t, send, stats } = await setup();
    const id = await send("p");
    const before = new Date().toISOString();
    const res = await t.call("POST", `/v1/hooks/${id}/process`);
    expect(res.status).toBe(200);
    expect(res.json.status).toBe("handled");
    expect(res.json.finalized_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(res.json.finalized_at >= before && res.json.finalized_at >= res.json.created_at).toBe(true);
    expect(res.json.events).toEqual([{ kind: "handled", actor: "api:test", message: "", created_at: res.json.finalized_at }]);
    expect(await stats("p")).toEqual({ pending: "0", handled: "1", failed: "0", discarded: "0" });
    for (const op of ["process", "fail", "discard", "retry"]) {
      const again = await t.call("POST", `/v1/hooks/${id}/${op}`, op === "fail" ? { message: "x" } : undefined);
      expect(again.status).toBe(409);
      expect(again.json.code).toBe(9);
    }
    expect((await t.call("GET", `/v1/hooks/${id}`)).json.events.length).toBe(1);
    expect(await stats("p")).toEqual({ pending: "0", handled: "1", failed: "0", discarded: "0" });
  });

  test("fail -> retry -> discard -> retry -> process keeps every event, oldest first", async () => {
    const { t, send, stats } = await setup();
    const id = await send("life");
    const failed = await t.call("POST", `/v1/hooks/${id}/fail`, { message: "could not parse" });
    expect(failed.json).toMatchObject({ status: "failed", events: [{ kind: "failed", actor: "api:test", message: "could not parse" }] });
    expect("finalized_at" in failed.json).toBe(false);
    expect(await stats("life")).toMatchObject({ pending: "0", failed: "1" });
    expect((await t.call("POST", `/v1/hooks/${id}/process`)).status).toBe(409);
    expect((await t.call("POST", `/v1/hooks/${id}/retry`)).json.status).toBe("pending");
    expect(await stats("life")).toMatchObject({ pending: "1", failed: "0" });
    const discarded = await t.call("POST", `/v1/hooks/${id}/discard`);
    expect(discarded.json.status).toBe("discarded");
    expect(discarded.json.finalized_at).toBeString();
    expect(await stats("life")).toMatchObject({ pending: "0", discarded: "1" });
    expect((await t.call("POST", `/v1/hooks/${id}/discard`)).status).toBe(409);
    const retried = await t.call("POST", `/v1/hooks/${id}/retry`);
    expect("finalized_at" in retried.json).toBe(false);
    const done = await t.call("POST", `/v1/hooks/${id}/process`);
    expect(done.json.events.map((e: any) => e.kind)).toEqual(["failed", "retried", "discarded", "retried", "handled"]);
    expect(await stats("life")).toEqual({ pending: "0", handled: "1", failed: "0", discarded: "0" });
  });

  test("discard from failed; retry refused from pending", async () => {
    const { t, send } = await setup();
    const id = await send("x");
    expect((await t.call("POST", `/v1/hooks/${id}/retry`)).status).toBe(409);
    await t.call("POST", `/v1/hooks/${id}/fail`, { message: "m" });
    expect((await t.call("POST", `/v1/hooks/${id}/discard`)).json.status).toBe("discarded");
  });

  test("fail validates its body: malformed JSON, wrong types, unknown fields, missing message", async () => {
    const { t, send } = await setup();
    const id = await send("v");
    for (const body of ["{not json", { message: 5 }, { message: "ok", extra: 1 }, {}, { message: "x".repeat(5000) }]) {
      const res = await t.call("POST", `/v1/hooks/${id}/fail`, body);
      expect(res.status).toBe(400);
      expect(res.json.code).toBe(3);
    }
    expect((await t.call("GET", `/v1/hooks/${id}`)).json.status).toBe("pending");
  });

  test("transitions on unknown hooks answer 404", async () => {
    const { t } = await setup();
    for (const op of ["process", "discard", "retry"]) {
      expect((await t.call("POST", `/v1/hooks/01aaaaaaaaaaaaaaaaaaaaaaaa/${op}`)).status).toBe(404);
    }
    expect((await t.call("POST", "/v1/hooks/01aaaaaaaaaaaaaaaaaaaaaaaa/fail", { message: "m" })).status).toBe(404);
  });

  test("unknown routes under /v1 answer 404 in the error body", async () => {
    const { t } = await setup();
    const res = await t.call("GET", "/v1/nothing-here");
    expect(res.status).toBe(404);
    expect(res.json).toEqual({ code: 5, message: expect.any(String), details: [] });
  });

  test("a method a route does not have answers 405 (code 12) with Allow", async () => {
    const { t } = await setup();
    const cases: [string, string, string][] = [
      ["PUT", "/v1/channels", "GET, HEAD"],
      ["POST", "/v1/channels/a", "GET, DELETE, HEAD"],
      ["GET", "/v1/hooks/01aaaaaaaaaaaaaaaaaaaaaaaa/retry", "POST"],
      ["OPTIONS", "/v1/hooks", "GET, HEAD"],
    ];
    for (const [method, path, allow] of cases) {
      const res = await t.call(method, path);
      expect({ method, path, status: res.status, allow: res.headers.get("allow"), code: res.json.code }).toEqual({
        method,
        path,
        status: 405,
        allow,
        code: 12,
      });
      expect(res.json.message).toContain(`${method} is not allowed on ${path}`);
    }
    expect((await t.call("GET", "/v1/channels/a/nothing")).status).toBe(404);
  });
});

describe("credentials and bodies (bad input)", () => {
  test("401 comes before the body is read: malformed or huge bodies from strangers get 401", async () => {
    const { t, send } = await setup();
    const id = await send("x");
    const bad = await t.call("POST", `/v1/hooks/${id}/fail`, "{not json", {});
    expect(bad.status).toBe(401);
    const huge = await t.call("POST", `/v1/hooks/${id}/fail`, JSON.stringify({ message: "x".repeat(2_000_000) }), { "content-type": "application/json" });
    expect(huge.status).toBe(401);
    expect((await t.call("GET", `/v1/hooks/${id}`)).json.status).toBe("pending");
  });

  test("bodies over 64 KiB answer 413 with code 8; a form body answers 415", async () => {
    const { t, send } = await setup();
    const id = await send("x");
    const big = await t.call("POST", `/v1/hooks/${id}/fail`, JSON.stringify({ message: "x".repeat(70_000) }));
    expect(big.status).toBe(413);
    expect(big.json).toEqual({ code: 8, message: expect.any(String), details: [] });
    const form = await t.call("POST", `/v1/hooks/${id}/fail`, "message=x", { ...AUTH, "content-type": "application/x-www-form-urlencoded" });
    expect(form.status).toBe(415);
    expect((await t.call("GET", `/v1/hooks/${id}`)).json.status).toBe("pending");
  });

  test("the token is read only from the Authorization header; its scheme is case-insensitive", async () => {
    const { t } = await setup();
    const token = AUTH.authorization.slice("Bearer ".length);
    expect((await t.call("GET", `/v1/channels?access_token=${token}`, undefined, {})).status).toBe(401);
    expect((await t.call("GET", `/v1/channels?access_token=${token}`, undefined, { authorization: "Basic eDo=" })).status).toBe(401);
    expect((await t.call("GET", "/v1/channels", undefined, { authorization: `bearer ${token}` })).status).toBe(200);
    expect((await t.call("GET", "/v1/channels", undefined, { authorization: `BEARER  ${token}` })).status).toBe(200);
    expect((await t.call("GET", "/v1/channels", undefined, { authorization: `Bearer ${token}x` })).status).toBe(401);
  });

  test("operations without query parameters or body refuse unknown ones", async () => {
    const { t, send } = await setup();
    const id = await send("c");
    const cases: [string, string, unknown][] = [
      ["GET", "/v1/channels?foo=1", undefined],
      ["GET", "/v1/channels/c?foo=1", undefined],
      ["GET", `/v1/hooks/${id}?foo=1`, undefined],
      ["GET", `/v1/hooks/${id}/attempts?foo=1`, undefined],
      ["POST", `/v1/hooks/${id}/discard`, { bogus: true }],
      ["POST", `/v1/hooks/${id}/process`, { x: 1 }],
      ["POST", "/v1/channels/c/pause", "{bogus"],
      ["POST", "/v1/channels/c/resume", { paused: false }],
      ["DELETE", "/v1/channels/c", { really: true }],
      ["DELETE", `/v1/hooks/${id}?force=1`, undefined],
      ["POST", `/v1/hooks/${id}/fail?x=1`, { message: "m" }],
    ];
    for (const [method, path, body] of cases) {
      const res = await t.call(method, path, body);
      expect([method, path, res.status]).toEqual([method, path, 400]);
      expect(res.json.code).toBe(3);
    }
    expect((await t.call("GET", `/v1/hooks/${id}`)).json.status).toBe("pending");
    expect((await t.call("GET", "/v1/channels/c")).json.paused).toBe(false);
  });
});

describe("transitions racing on one hook", () => {
  test("two discards of one hook sent at once: one answers 200, the other 409; one event, counters exact", async () => {
    const { t, send, stats } = await setup();
    const ids = await Promise.all(Array.from({ length: 20 }, () => send("race")));
    for (const id of ids) {
      const [a, b] = await Promise.all([t.call("POST", `/v1/hooks/${id}/discard`), t.call("POST", `/v1/hooks/${id}/discard`)]);
      expect([a.status, b.status].sort()).toEqual([200, 409]);
      expect([a, b].find((r) => r.status === 409)!.json).toEqual({ code: 9, message: expect.stringContaining("discard"), details: [] });
    }
    for (const id of ids) expect((await t.call("GET", `/v1/hooks/${id}`)).json.events.filter((e: { kind: string }) => e.kind === "discarded")).toHaveLength(1);
    expect(await stats("race")).toEqual({ pending: "0", handled: "0", failed: "0", discarded: "20" });
    expect((await t.call("GET", "/v1/channels")).status).toBe(200);
  });

  test("a delete racing a discard: the hook is gone, the channel's counters are exact", async () => {
    const { t, send, stats } = await setup();
    const ids = await Promise.all(Array.from({ length: 10 }, () => send("gone")));
    for (const id of ids) {
      const [discard, del] = await Promise.all([t.call("POST", `/v1/hooks/${id}/discard`), t.call("DELETE", `/v1/hooks/${id}`)]);
      expect([200, 404, 409]).toContain(discard.status);
      expect(del.status).toBe(200);
      expect((await t.call("GET", `/v1/hooks/${id}`)).status).toBe(404);
    }
    expect(await stats("gone")).toEqual({ pending: "0", handled: "0", failed: "0", discarded: "0" });
  });
});
