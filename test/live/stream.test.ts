import { bodyPreview } from "../../src/hooks/preview";
import { afterEach, describe, expect, test } from "bun:test";
import { AUTH, createTestApp, type TestApp } from "../helpers/app";
import { createChangeLog } from "../../src/live/bus";
import { createStreams } from "../../src/live/stream";
import { createLive } from "../../src/live";
import { dashboardApp } from "../dashboard/support";
import { sseReader } from "./sse";
import { join } from "node:path";
import { startProcess } from "../helpers/binary";

const stops: (() => void)[] = [];
afterEach(() => stops.splice(0).forEach((s) => s()));

function listening(app: TestApp, opts: { idleTimeout?: number } = {}) {
  const l = app.listen(opts);
  stops.push(() => {
    app.live.streams.close();
    l.stop();
  });
  return l;
}

async function open(url: string, headers: Record<string, string> = AUTH) {
  const res = await fetch(url, { headers });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toStartWith("text/event-stream");
  return sseReader(res);
}

describe("GET /v1/stream", () => {
  test("a caught hook arrives as a `hook` event with the Hook resource, and its channel's stats as a `channel` event", async () => {
    const app = createTestApp();
    const { url } = listening(app);
    const stream = await open(`${url}/v1/stream`);
    const sent = await fetch(`${url}/?channel=orders`, { method: "POST", body: '{"n":1}', headers: { "content-type": "application/json" } });
    const { id } = (await sent.json()) as { id: string };
    const hook = await stream.next((e) => e.event === "hook");
    expect(hook.id).toMatch(/^[0-9a-z]+-\d+$/);
    const wire = JSON.parse(hook.data);
    // The stream is an extension: its hooks carry the extension fields, as GetHook with include=extensions.
    expect(wire).toEqual((await app.call("GET", `/v1/hooks/${id}?include=extensions`)).json);
    const channel = JSON.parse((await stream.next((e) => e.event === "channel")).data);
    expect(channel).toEqual({ name: "orders", paused: false, guards: [], stats: { pending: "1", handled: "0", failed: "0", discarded: "0" } });
  });

  test("a hook whose contract check was kept comes again with its `contract` once checked", async () => {
    const app = createTestApp();
    const { url } = listening(app);
    const stream = await open(`${url}/v1/stream?channel=gh`);
    const sent = await fetch(`${url}/?channel=gh`, {
      method: "POST",
      body: '{"action":"opened"}',
      headers: { "content-type": "application/json", "x-github-event": "issues" },
    });
    const { id } = (await sent.json()) as { id: string };
    const checked = await stream.next((e) => e.event === "hook" && JSON.parse(e.data).contract !== undefined);
    const wire = JSON.parse(checked.data);
    expect(wire.id).toBe(id);
    expect(wire.contract).toMatchObject({ result: "invalid", new_type: true });
    expect(wire).toEqual((await app.call("GET", `/v1/hooks/${id}?include=extensions`)).json);
  });

  test("fields=summary sends hooks without body, payload, headers and events, with their size; a bad value is a 400", async () => {
    const app = createTestApp();
    const { url } = listening(app);
    const stream = await open(`${url}/v1/stream?fields=summary`);
    const sent = await fetch(`${url}/?channel=orders`, { method: "POST", body: '{"n":12345}', headers: { "content-type": "application/json" } });
    const { id } = (await sent.json()) as { id: string };
    const summary = JSON.parse((await stream.next((e) => e.event === "hook")).data);
    const { body, payload, headers, events, contract, ...rest } = (await app.call("GET", `/v1/hooks/${id}?include=extensions`)).json;
    expect(summary).toEqual({ ...rest, size: 11, preview: '{"n":12345}' });
    expect([body, payload, headers, events].every((x) => x !== undefined)).toBe(true);
    const bad = await fetch(`${url}/v1/stream?fields=all`, { headers: AUTH });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { message: string }).message).toContain("fields");
  });

  test("summaries of hooks caught together match their stored hooks, whatever the sender put in query and headers", async () => {
    const app = createTestApp();
    const { url } = listening(app);
    const stream = await open(`${url}/v1/stream?fields=summary`);
    const sends = [
      ["/?channel=orders&q=%22quoted%22&back=\\&x=<b>", "Application/JSON; charset=utf-8", "PUT"],
      ["/?channel=orders", 'text/"plain\\"; x=1', "POST"],
      ["/?channel=orders&é=ü", "", "PATCH"],
      ["/?channel=orders", "text/plain", "POST"],
    ] as const;
    const ids = await Promise.all(
      sends.map(async ([path, type, method]) => {
        const res = await fetch(`${url}${path}`, { method, body: "x".repeat(path.length), headers: type ? { "content-type": type } : {} });
        const text = await res.text();
        expect([path, res.status, text]).toEqual([path, 200, expect.stringContaining('"id"')]);
        return (JSON.parse(text) as { id: string }).id;
      }),
    );
    for (let i = 0; i < ids.length; i++) {
      const e = await stream.next((x) => x.event === "hook" && ids.includes(JSON.parse(x.data).id));
      const summary = JSON.parse(e.data);
      const { body, payload, headers, events, contract, ...rest } = (await app.call("GET", `/v1/hooks/${summary.id}?include=extensions`)).json;
      expect(summary).toEqual({ ...rest, size: Buffer.from(body, "base64").byteLength, preview: bodyPreview(Buffer.from(body, "base64")) });
    }
  });

  test("a stream ends once its key is revoked, or its session signed out", async () => {
    const app = await dashboardApp();
    const { url } = listening(app);
    const token: string = (await app.call("POST", "/ui/api/api-keys", { label: "watcher" }, app.admin)).json.token;
    const bearerStream = await fetch(`${url}/v1/stream`, { headers: { authorization: `Bearer ${token}` } });
    const sessionStream = await fetch(`${url}/ui/api/stream`, { headers: app.member });
    expect([bearerStream.status, sessionStream.status]).toEqual([200, 200]);
    expect((await app.call("DELETE", "/ui/api/api-keys/watcher", undefined, app.admin)).status).toBe(200);
    expect((await app.call("DELETE", "/ui/api/session", undefined, app.member)).status).toBeLessThan(300);
    // Each stream is checked again when it is next written to (at most once a second): hooks keep coming.
    const ended = (res: Response) =>
      res.text().then(
        () => true,
        () => true,
      );
    const bothEnded = Promise.all([ended(bearerStream), ended(sessionStream)]);
    let done = false;
    void bothEnded.then(() => (done = true));
    const deadline = Date.now() + 10_000;
    while (!done && Date.now() < deadline) {
      await app.catchHooks("busy", 1);
      await Bun.sleep(100);
    }
    expect(done).toBe(true);
  }, 20_000);

  test("a refused request arrives as a `refusal` event, as ListRefusals shows it, on the streams of its channel", async () => {
    const app = createTestApp({ guards: [{ name: "only-put", kind: "method", allow: ["PUT"] }], channels: [{ name: "strict", guards: ["only-put"] }] });
    const { url } = listening(app);
    const mine = await open(`${url}/v1/stream?channel=strict`);
    const other = await open(`${url}/v1/stream?channel=elsewhere`);
    expect((await fetch(`${url}/?channel=strict`, { method: "POST", body: "{}" })).status).toBe(405);
    await fetch(`${url}/?channel=elsewhere`, { method: "POST", body: "{}" });
    const e = await mine.next((x) => x.event === "refusal");
    expect(JSON.parse(e.data)).toEqual((await app.call("GET", "/v1/refusals?channel=strict")).json[0]);
    expect((await other.next()).event).toBe("hook");
  });

  test("a status change arrives as a `hook` event; filters channel and status apply", async () => {
    const app = createTestApp();
    const { url } = listening(app);
    const [a] = await app.catchHooks("orders", 1);
    await app.catchHooks("other", 1);
    const discarded = await open(`${url}/v1/stream?channel=orders&status=discarded`);
    const all = await open(`${url}/v1/stream`);
    await app.call("POST", `/v1/hooks/${a}/discard`);
    await app.catchHooks("orders", 1);
    const e = await discarded.next((x) => x.event === "hook");
    expect(JSON.parse(e.data)).toMatchObject({ id: a, status: "discarded", events: [{ kind: "discarded", actor: "api:test" }] });
    // The next one the filtered stream gets is the channel event, not the pending hook caught after.
    expect((await discarded.next()).event).toBe("channel");
    // Hooks in order; a channel changed twice within one write of the streams is sent once, as it is then.
    const seen: string[][] = [];
    for (;;) {
      const x = await all.next();
      const data = JSON.parse(x.data);
      seen.push([x.event, data.status ?? data.name]);
      if (x.event === "channel" && data.stats.pending === "1" && data.stats.discarded === "1") break;
    }
    expect(seen.filter(([e]) => e === "hook")).toEqual([
      ["hook", "discarded"],
      ["hook", "pending"],
    ]);
    expect(seen.filter(([e]) => e === "channel").every(([, name]) => name === "orders")).toBe(true);
    expect(seen.at(-1)).toEqual(["channel", "orders"]);
  });

  test("bad filters get 400; no token gets 401", async () => {
    const app = createTestApp();
    expect((await app.call("GET", "/v1/stream?status=new")).json.code).toBe(3);
    expect((await app.call("GET", "/v1/stream?color=red")).json.code).toBe(3);
    expect((await app.call("GET", "/v1/stream", undefined, {})).status).toBe(401);
  });

  test("Last-Event-ID resumes after the last event seen, without missing any; an unknown id gets `reset`", async () => {
    const app = createTestApp();
    const { url } = listening(app);
    const first = await open(`${url}/v1/stream`);
    await app.catchHooks("orders", 1);
    const last = await first.next((e) => e.event === "channel");
    await first.cancel();
    const missed = await app.catchHooks("orders", 3);
    const resumed = await open(`${url}/v1/stream`, { ...AUTH, "last-event-id": last.id! });
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push(JSON.parse((await resumed.next((e) => e.event === "hook")).data).id);
    expect(ids).toEqual(missed);
    const stale = await open(`${url}/v1/stream`, { ...AUTH, "last-event-id": "zzz-5" });
    expect((await stale.next()).event).toBe("reset");
  });

  test("a quiet stream gets heartbeats", async () => {
    const app = createTestApp({}, { heartbeatMs: 50 });
    const { url } = listening(app);
    const stream = await open(`${url}/v1/stream`);
    await stream.comment((c) => c === "heartbeat");
  });

  test("a quiet stream outlives the server's idle timeout", async () => {
    const server = await startProcess([process.execPath, join(import.meta.dir, "idle-server.ts")], import.meta.dir);
    stops.push(() => server.proc.kill());
    const stream = await open(`${server.url}/v1/stream`);
    // An idle keep-alive connection is closed by the idle timeout (1 s, enforced within a few); the stream is not.
    const { promise: closed, resolve } = Promise.withResolvers<void>();
    const idle = await Bun.connect({ hostname: "127.0.0.1", port: Number(new URL(server.url).port), socket: { data() {}, close: () => resolve() } });
    idle.write("GET /v1/channels HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer test-token-0123456789\r\n\r\n");
    await closed;
    await fetch(`${server.url}/?channel=late`, { method: "POST", body: "{}" });
    expect(JSON.parse((await stream.next((e) => e.event === "hook")).data).channel).toBe("late");
  }, 15_000);

  test("streams end cleanly on shutdown", async () => {
    const app = createTestApp();
    const { url } = listening(app);
    const stream = await open(`${url}/v1/stream`);
    app.live.streams.close();
    await stream.end();
    expect(stream.ended()).toBe(true);
  });

  test("the dashboard reads the same stream with its session, not with a bearer token", async () => {
    const app = await dashboardApp();
    const { url } = listening(app);
    expect((await fetch(`${url}/ui/api/stream`, { headers: AUTH })).status).toBe(401);
    const stream = await open(`${url}/ui/api/stream`, { cookie: app.member.cookie! });
    const [id] = await app.catchHooks("orders", 1);
    await app.call("POST", `/ui/api/hooks/${id}/process`, undefined, app.member);
    const e = await stream.next((x) => x.event === "hook" && JSON.parse(x.data).status === "handled");
    expect(JSON.parse(e.data).events[0].actor).toBe("max@example.com");
  });
});

describe("slow clients", () => {
  test("a client that reads nothing is dropped once its unread bytes pass the bound; the others go on", async () => {
    const log = createChangeLog({ epoch: "t" });
    const streams = createStreams({
      log,
      render: async (c) => ({ event: "hook", channel: "c", data: "x".repeat(1000) + c.seq }),
      maxUnread: 10_000,
    });
    const stalled = streams.open({}, null); // not read until the end
    const reading = sseReader(new Response(streams.open({}, null)));
    for (let i = 0; i < 50; i++) log.hook("c", String(i));
    for (let i = 0; i < 50; i++) await reading.next((e) => e.event === "hook");
    expect(streams.count()).toBe(1);
    // Read at last, it ends with the error it was dropped with, its queue gone.
    expect(
      await new Response(stalled).text().then(
        () => "ended",
        (e: Error) => e.message,
      ),
    ).toBe("client too slow");
    streams.close();
  });
});

describe("compression (Content-Encoding: deflate)", () => {
  /** Every byte of a response as sent, before any decoding. */
  async function rawBytes(res: Response): Promise<Uint8Array> {
    return new Uint8Array(await res.arrayBuffer());
  }
  const eventsOf = (text: string) =>
    text
      .split("\n\n")
      .filter((b) => b.includes("event: "))
      .map((b) =>
        b
          .split("\n")
          .filter((l) => !l.startsWith(":"))
          .join("\n"),
      );

  test("clients taking deflate get the events a plain client gets, as one valid zlib stream each, whenever they joined", async () => {
    const app = createTestApp();
    const { url } = listening(app);
    const deflated = { ...AUTH, "accept-encoding": "gzip, deflate, br" };
    const plainRes = await fetch(`${url}/v1/stream`, { headers: { ...AUTH, "accept-encoding": "identity" } });
    expect(plainRes.headers.get("content-encoding")).toBeNull();
    const plain = sseReader(plainRes);
    const early = await fetch(`${url}/v1/stream`, { headers: deflated, decompress: false });
    expect(early.headers.get("content-encoding")).toBe("deflate");
    expect(early.headers.get("vary")).toBe("accept-encoding");
    // A large body makes a hook event of several pieces; hostile bytes go through unchanged.
    const big = new Uint8Array(300_000).map((_, i) => (i * 7919) % 251);
    const ids: string[] = [];
    const send = async (body: string | Uint8Array) =>
      ids.push(((await (await fetch(`${url}/?channel=zip`, { method: "POST", body })).json()) as { id: string }).id);
    await send('{"n":1}');
    await send(big);
    for (const id of ids) await plain.next((e) => e.event === "hook" && JSON.parse(e.data).id === id);
    const late = await fetch(`${url}/v1/stream`, { headers: deflated, decompress: false });
    await send("<script>alert(1)</script>");
    // Every stream's piece of a wake-up is queued in the same turn: once the plain one has it, all have.
    await plain.next((e) => e.event === "hook" && JSON.parse(e.data).id === ids[2]);
    app.live.streams.close();
    const { inflateSync } = await import("node:zlib");
    // inflateSync checks the zlib header, every block and the Adler-32 at the end.
    const earlyText = inflateSync(await rawBytes(early)).toString();
    const lateText = inflateSync(await rawBytes(late)).toString();
    const hookIds = (text: string) =>
      eventsOf(text)
        .filter((e) => e.includes("event: hook\n"))
        .map((e) => JSON.parse(e.slice(e.indexOf("data: ") + 6)).id);
    expect(hookIds(earlyText)).toEqual(ids);
    expect(hookIds(lateText)).toEqual([ids[2]]);
    const wire = JSON.parse(
      eventsOf(earlyText)
        .find((e) => e.includes(ids[1]!))!
        .split("data: ")[1]!,
    );
    expect(Buffer.from(wire.body, "base64")).toEqual(Buffer.from(big));
  });

  test("deflate is used only where the client accepts it", async () => {
    const app = createTestApp();
    const { url } = listening(app);
    for (const [accept, encoding] of [
      ["deflate;q=0, gzip", null],
      ["*", "deflate"],
      ["gzip;q=1, *;q=0", null],
      ["DEFLATE;q=0.5", "deflate"],
      ["", null],
    ] as const) {
      const res = await fetch(`${url}/v1/stream`, { headers: { ...AUTH, "accept-encoding": accept }, decompress: false });
      expect([accept, res.headers.get("content-encoding")]).toEqual([accept, encoding]);
      await res.body!.cancel();
    }
  });
});

describe("the writer loop", () => {
  test("a stream resuming while a write is being made gets every change after its id, in order", async () => {
    const log = createChangeLog({ epoch: "t" });
    let gate: (() => void) | undefined;
    const streams = createStreams({
      log,
      // Hook 3's first render waits until the test lets it go: the write is under way meanwhile.
      render: async (c) => {
        if (c.key === "3" && !gate) await new Promise<void>((r) => (gate = r));
        return { event: "hook", channel: "c", data: JSON.stringify({ n: Number(c.key) }) };
      },
    });
    const first = sseReader(new Response(streams.open({}, null)));
    for (let i = 1; i <= 2; i++) log.hook("c", String(i));
    await first.next((e) => e.event === "hook" && JSON.parse(e.data).n === 2);
    log.hook("c", "3");
    while (!gate) await new Promise((r) => setImmediate(r));
    const resumed = sseReader(new Response(streams.open({}, "t-1")));
    gate();
    log.hook("c", "4");
    const got: number[] = [];
    while (got.at(-1) !== 4) got.push(JSON.parse((await resumed.next((e) => e.event === "hook")).data).n);
    expect(got).toEqual([2, 3, 4]);
    streams.close();
  });

  test("a channel changed several times before a write is rendered and sent once, after the hooks before it", async () => {
    const log = createChangeLog({ epoch: "t" });
    const rendered: string[] = [];
    const streams = createStreams({
      log,
      render: (c) => (rendered.push(`${c.kind}:${c.key}`), { event: c.kind, channel: "c", data: JSON.stringify({ key: c.key }) }),
    });
    const reader = sseReader(new Response(streams.open({}, null)));
    log.hook("c", "1");
    log.channel("c");
    log.hook("c", "2");
    log.channel("c");
    log.channel("c");
    const events = [await reader.next(), await reader.next(), await reader.next()].map((e) => [e.event, e.id]);
    expect(events).toEqual([
      ["hook", "t-1"],
      ["hook", "t-3"],
      ["channel", "t-5"],
    ]);
    // Each change rendered once (newest first, as streams pick them); the superseded channel changes not at all.
    expect([...rendered].sort()).toEqual(["channel:c", "hook:1", "hook:2"]);
    streams.close();
  });

  test("a caught hook's summary needs no database read; one changed before its batch was announced is read, not shown as pending", async () => {
    let reads = 0;
    const raw = {
      id: "01kbhandled0000000000000000",
      channel: "c",
      status: "handled" as const,
      method: "POST",
      query: "channel=c",
      headers: { "content-type": "text/plain" },
      body: new Uint8Array(3),
      ip: "::1",
      createdAt: 0,
      finalizedAt: 5,
    };
    const store = {
      getHookSummary: async (id: string) => (reads++, id === raw.id ? { ...raw, size: raw.body.byteLength, head: raw.body } : undefined),
      getChannel: async () => undefined,
    } as unknown as Parameters<typeof createLive>[0]["store"];
    const live = createLive({ store, hooks: () => ({}) as never });
    const reader = sseReader(new Response(live.streams.open({ fields: "summary" }, null)));
    const caught = (id: string) => ({
      id,
      channel: "c",
      method: "POST",
      query: "channel=c",
      ip: "::1",
      createdAt: 0,
      body: new Uint8Array(3),
      contentType: "text/plain",
      headers: "{}",
      eventType: "",
    });
    live.apply({ kind: "caught", hooks: [caught("01kbpending0000000000000000")] });
    expect(JSON.parse((await reader.next((e) => e.event === "hook")).data)).toMatchObject({ id: "01kbpending0000000000000000", status: "pending", size: 3 });
    expect(reads).toBe(0);
    // The runner handled it between its commit and the batch's announcement.
    live.apply({ kind: "hook", id: raw.id, channel: "c" });
    live.apply({ kind: "caught", hooks: [caught(raw.id)] });
    const statuses = [await reader.next((e) => e.event === "hook"), await reader.next((e) => e.event === "hook")].map((e) => JSON.parse(e.data).status);
    expect(statuses).toEqual(["handled", "handled"]);
    live.streams.close();
  });

  test("with only dashboards open (latest, hook, status), a caught hook's summary is read back without its body, and a stream of failed hooks reads none", async () => {
    const reads: string[] = [];
    const raw = {
      id: "01kbdashboard00000000000000",
      channel: "c",
      status: "pending" as const,
      method: "POST",
      query: "channel=c",
      headers: { "content-type": "text/plain" },
      ip: "::1",
      createdAt: 0,
      finalizedAt: null,
      size: 3,
      head: new TextEncoder().encode("abc"),
    };
    const store = {
      // Only the summary is read: a store read of the whole hook (its body) would throw here.
      getHookSummary: async (id: string) => (reads.push(id), id === raw.id ? raw : undefined),
      getChannel: async () => undefined,
    } as unknown as Parameters<typeof createLive>[0]["store"];
    const live = createLive({ store, hooks: () => ({}) as never });
    const caught = (id: string) => ({
      id,
      channel: "c",
      method: "POST",
      query: "channel=c",
      ip: "::1",
      createdAt: 0,
      body: new Uint8Array(3),
      contentType: "text/plain",
      headers: "{}",
      eventType: "",
    });
    // A dashboard of failed hooks: hooks just caught are pending, left out without a read.
    const failed = sseReader(new Response(live.streams.open({ fields: "summary", latest: 50, status: "failed" }, null)));
    live.apply({ kind: "caught", hooks: [caught("01kbcaughtforfailed00000000")] });
    expect((await failed.next()).event).toBe("channel-deleted"); // sent after the write's hooks; this fake store holds no channel
    expect(reads).toEqual([]);
    const list = sseReader(new Response(live.streams.open({ fields: "summary", latest: 50 }, null)));
    const one = sseReader(new Response(live.streams.open({ fields: "summary", hook: raw.id }, null)));
    live.apply({ kind: "caught", hooks: [caught(raw.id)] });
    for (const reader of [list, one]) {
      expect(JSON.parse((await reader.next((e) => e.event === "hook")).data)).toMatchObject({
        id: raw.id,
        status: "pending",
        size: 3,
        content_type: "text/plain",
      });
    }
    // Read once for both streams.
    expect(reads).toEqual([raw.id]);
    // A stream of every hook's summary makes the next caught hooks keep theirs: no more reads.
    const every = sseReader(new Response(live.streams.open({ fields: "summary" }, null)));
    live.apply({ kind: "caught", hooks: [caught("01kbevery000000000000000000")] });
    expect(JSON.parse((await every.next((e) => e.event === "hook")).data)).toMatchObject({ id: "01kbevery000000000000000000", status: "pending", size: 3 });
    expect(JSON.parse((await list.next((e) => e.event === "hook")).data).id).toBe("01kbevery000000000000000000");
    expect(reads).toEqual([raw.id]);
    live.streams.close();
  });
});

describe("latest: the newest hooks of each write only", () => {
  test("of ten hooks changed before a write, `latest=3` gets `skipped` and the newest three in order, and the other events", async () => {
    const log = createChangeLog({ epoch: "t" });
    const renders: string[] = [];
    const streams = createStreams({
      log,
      render: (c) => (
        renders.push(c.key),
        c.kind === "hook"
          ? { event: "hook", channel: c.channel!, status: "pending", data: JSON.stringify({ id: c.key }), summary: JSON.stringify({ id: c.key }) }
          : { event: "channel", channel: c.key, data: JSON.stringify({ name: c.key }) }
      ),
    });
    const latest = sseReader(new Response(streams.open({ fields: "summary", latest: 3 }, null)));
    const otherChannel = sseReader(new Response(streams.open({ fields: "summary", latest: 3, channel: "b" }, null)));
    for (let i = 1; i <= 10; i++) log.hook("a", `h${i}`);
    log.hook("b", "b1");
    log.channel("a");
    const events = [];
    for (let i = 0; i < 5; i++) events.push(await latest.next());
    expect(events.map((e) => [e.event, e.data])).toEqual([
      ["skipped", '{"hooks":8}'],
      ["hook", '{"id":"h9"}'],
      ["hook", '{"id":"h10"}'],
      ["hook", '{"id":"b1"}'],
      ["channel", '{"name":"a"}'],
    ]);
    expect(events[0]!.id).toBeUndefined();
    // Hooks left out are not even read.
    expect(renders.filter((k) => /^h[1-8]$/.test(k))).toEqual([]);
    // A stream of channel b counts only its own channel's hooks: none were left out.
    expect([await otherChannel.next()].map((e) => [e.event, e.data])).toEqual([["hook", '{"id":"b1"}']]);
    // The next write has nothing to leave out.
    log.hook("a", "h11");
    expect([await latest.next()].map((e) => [e.event, e.data])).toEqual([["hook", '{"id":"h11"}']]);
    streams.close();
  });

  test("GET /v1/stream takes latest from 1 to 1000", async () => {
    const app = createTestApp();
    for (const bad of ["0", "1001", "abc", "-1", "1.5"]) {
      const res = await app.call("GET", `/v1/stream?latest=${bad}`);
      expect([bad, res.status, res.json.code]).toEqual([bad, 400, 3]);
      expect(res.json.message).toContain("latest");
    }
    const ids = await app.catchHooks("orders", 3);
    const { url } = listening(app);
    const stream = await open(`${url}/v1/stream?fields=summary&latest=1`);
    // Three changes recorded in one turn reach the stream in one write.
    for (const id of ids) app.live.log.hook("orders", id);
    expect(JSON.parse((await stream.next((e) => e.event === "skipped")).data)).toEqual({ hooks: 2 });
    expect(JSON.parse((await stream.next((e) => e.event === "hook")).data).id).toBe(ids[2]);
  });

  test("a hook changed twice in one write takes one place, with its newest change", async () => {
    const log = createChangeLog({ epoch: "t" });
    const streams = createStreams({
      log,
      render: (c) => ({ event: "hook", channel: "a", status: "pending", data: JSON.stringify({ id: c.key, seq: c.seq }) }),
    });
    const reader = sseReader(new Response(streams.open({ latest: 3 }, null)));
    for (let i = 1; i <= 6; i++) log.hook("a", `h${i}`);
    for (let i = 1; i <= 3; i++) log.hook("a", `h${i}`);
    expect(JSON.parse((await reader.next()).data)).toEqual({ hooks: 3 });
    const got = [await reader.next(), await reader.next(), await reader.next()].map((e) => JSON.parse(e.data));
    expect(got).toEqual([
      { id: "h1", seq: 7 },
      { id: "h2", seq: 8 },
      { id: "h3", seq: 9 },
    ]);
    streams.close();
  });

  test("a render that throws loses no stream its changes: the next write makes them again", async () => {
    const log = createChangeLog({ epoch: "t" });
    let failures = 1;
    const streams = createStreams({
      log,
      render: (c) => {
        if (c.key === "h1" && failures-- > 0) throw new Error("database unavailable");
        return { event: "hook", channel: "a", status: "pending", data: JSON.stringify({ id: c.key }) };
      },
    });
    const one = sseReader(new Response(streams.open({ latest: 1 }, null)));
    const three = sseReader(new Response(streams.open({ latest: 3 }, null)));
    for (let i = 1; i <= 3; i++) log.hook("a", `h${i}`);
    expect([await one.next(), await one.next()].map((e) => [e.event, e.data])).toEqual([
      ["skipped", '{"hooks":2}'],
      ["hook", '{"id":"h3"}'],
    ]);
    expect([await three.next(), await three.next(), await three.next()].map((e) => JSON.parse(e.data).id)).toEqual(["h1", "h2", "h3"]);
    expect(failures).toBe(-1);
    streams.close();
  });
});

describe("hook: one hook's events", () => {
  test("a stream with hook=ID gets that hook's events and none of the others'; a bad id is a 400", async () => {
    const app = createTestApp();
    const [a, b] = await app.catchHooks("orders", 2);
    const { url } = listening(app);
    const stream = await open(`${url}/v1/stream?fields=summary&hook=${a}`);
    await app.call("POST", `/v1/hooks/${b}/discard`);
    await app.catchHooks("orders", 3);
    await app.call("POST", `/v1/hooks/${a}/discard`);
    // The first hook event it gets is a's: none of b's change or of the three caught before.
    const e = await stream.next((x) => x.event === "hook");
    expect(JSON.parse(e.data)).toMatchObject({ id: a, status: "discarded" });
    const bad = await app.call("GET", "/v1/stream?hook=not-an-id");
    expect([bad.status, bad.json.code]).toEqual([400, 3]);
    expect(bad.json.message).toContain("hook");
  });
});
