import { afterEach, describe, expect, test } from "bun:test";
import net from "node:net";
import { Elysia } from "elysia";
import { AUTH } from "../helpers/app";
import { dashboardApp } from "../dashboard/support";
import { createChangeLog } from "../../src/live/bus";
import { createStreams } from "../../src/live/stream";
import { MAX_STREAMS_PER_CREDENTIAL, type StreamLimits } from "../../src/live/limits";
import { streamRoutes } from "../../src/live/routes";
import { hooksErrorResponse } from "../../src/hooks/errors";
import { silentLog } from "../../src/lib/log";
import { sseReader } from "./sse";

const stops: (() => void)[] = [];
afterEach(() => stops.splice(0).forEach((s) => s()));

/**
 * GET /stream of the real route over a real socket, with streams of a small unread limit and
 * small limits on open streams. The credential is the `x-who` header; every change renders as a
 * hook event of `size` bytes.
 */
function server(opts: { maxUnread?: number; limits?: StreamLimits; size?: number } = {}) {
  const log = createChangeLog({ epoch: "t" });
  const filler = "x".repeat(opts.size ?? 1000);
  const streams = createStreams({
    log,
    maxUnread: opts.maxUnread,
    limits: opts.limits,
    render: (c) => ({ event: "hook", channel: "c", data: JSON.stringify({ id: c.key, filler }) }),
  });
  const auth = new Elysia().derive({ as: "scoped" }, ({ request }) => ({ actor: request.headers.get("x-who") ?? "" }));
  const app = new Elysia().onError(({ error, code, request }) => hooksErrorResponse(error, code, silentLog, request)).use(streamRoutes(auth, { streams }));
  // Not in development mode: Bun would print the error a disconnected stream ends with.
  const listener = Bun.serve({ port: 0, hostname: "127.0.0.1", idleTimeout: 0, development: false, fetch: (r) => app.handle(r) });
  stops.push(() => {
    streams.close();
    listener.stop(true);
  });
  return { log, streams, url: `http://127.0.0.1:${listener.port}`, port: listener.port! };
}

/** A client that sends the request over a raw socket, reads the response's first bytes, and then nothing: the kernel's buffers fill. */
async function neverReading(port: number, who: string) {
  const socket = net.connect({ host: "127.0.0.1", port });
  socket.write(`GET /stream HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nx-who: ${who}\r\n\r\n`);
  const first: Buffer = await new Promise((resolve, reject) => socket.once("data", resolve).once("error", reject));
  socket.pause();
  expect(first.toString("latin1", 0, 12)).toBe("HTTP/1.1 200");
  const received: Buffer[] = [first];
  const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
  return {
    /** Reads again: resolves with what it received once the server has closed the connection. */
    async readToEnd(): Promise<string> {
      socket.on("data", (b: Buffer) => received.push(b));
      socket.on("error", () => {}); // a reset ends it as well as a close
      socket.resume();
      await closed;
      return Buffer.concat(received).toString("latin1");
    },
    destroy: () => socket.destroy(),
  };
}

async function deadline<T>(what: string, ms: number, until: () => T | undefined | false): Promise<T> {
  const end = performance.now() + ms;
  for (;;) {
    const v = until();
    if (v) return v;
    if (performance.now() > end) throw new Error(`not within ${ms} ms: ${what}`);
    await Bun.sleep(20);
  }
}

describe("slow clients over HTTP", () => {
  test("a client that never reads is disconnected once more than the limit is unread; a reading client is not", async () => {
    const s = server({ maxUnread: 256 * 1024, size: 200_000 });
    const stalled = await neverReading(s.port, "a");
    const res = await fetch(`${s.url}/stream`, { headers: { "x-who": "b" } });
    const reading = sseReader(res);
    expect(s.streams.count()).toBe(2);
    // Each change goes to both, and the reading client takes it before the next is made. The
    // stalled one fills the kernel's socket buffers (a few MB), then the server's share, and is
    // then disconnected.
    let sent = 0;
    const end = performance.now() + 30_000;
    while (s.streams.count() === 2) {
      if (performance.now() > end) throw new Error(`not disconnected within 30 s (${sent} events of 200 kB sent)`);
      s.log.hook("c", `h${++sent}`);
      await reading.next((e) => JSON.parse(e.data).id === `h${sent}`);
    }
    // The reading client goes on getting events.
    s.log.hook("c", "after");
    expect(JSON.parse((await reading.next()).data).id).toBe("after");
    // Read again, the stalled connection turns out closed by the server (reset: what its socket
    // held is gone too), short of the last events; it would resume with Last-Event-ID.
    const ended = await Promise.race([stalled.readToEnd(), Bun.sleep(10_000).then(() => undefined)]);
    expect(ended).toBeString();
    expect(ended).not.toContain(`"id":"h${sent}"`);
    expect(s.streams.count()).toBe(1);
  }, 40_000);
});

describe("limits on open streams", () => {
  test("past the limit per credential, and in all, a stream is refused with 429 and the gRPC body; a closed stream frees its place", async () => {
    const s = server({ limits: { perCredential: 2, total: 3 } });
    const open = (who: string) => fetch(`${s.url}/stream`, { headers: { "x-who": who } });
    const a1 = await open("a");
    const a2 = await open("a");
    expect([a1.status, a2.status]).toEqual([200, 200]);
    const a3 = await open("a");
    expect(a3.status).toBe(429);
    expect(a3.headers.get("retry-after")).toBe("5");
    const body = (await a3.json()) as { code: number; message: string; details: unknown[] };
    expect(body).toEqual({ code: 8, message: expect.stringContaining("too many open streams"), details: [] });
    const b1 = await open("b");
    expect(b1.status).toBe(200);
    const b2 = await open("b");
    expect(b2.status).toBe(429);
    expect(((await b2.json()) as { message: string }).message).toContain("the server holds 3");
    // A client that goes away frees its place (the server notices the closed connection).
    await a1.body!.cancel();
    const again = await deadline("a place freed", 5000, () => s.streams.count() === 2);
    expect(again).toBe(true);
    expect((await open("a")).status).toBe(200);
    for (const r of [a2, b1]) await r.body!.cancel();
  });

  test(`the app allows ${MAX_STREAMS_PER_CREDENTIAL} streams per API key and per dashboard user, counted apart`, async () => {
    const app = await dashboardApp();
    stops.push(() => app.live.streams.close());
    const get = (path: string, headers: Record<string, string>) => app.app.handle(new Request(`http://localhost${path}`, { headers }));
    const held: Response[] = [];
    for (let i = 0; i < MAX_STREAMS_PER_CREDENTIAL; i++) held.push(await get("/v1/stream", AUTH));
    expect(held.every((r) => r.status === 200)).toBe(true);
    const refused = await get("/v1/stream", AUTH);
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { code: number }).code).toBe(8);
    for (let i = 0; i < MAX_STREAMS_PER_CREDENTIAL; i++) held.push(await get("/ui/api/stream", { cookie: app.member.cookie! }));
    expect(held.every((r) => r.status === 200)).toBe(true);
    const refusedUser = await get("/ui/api/stream", { cookie: app.member.cookie! });
    expect(refusedUser.status).toBe(429);
    expect(await refusedUser.json()).toEqual({ code: 8, message: expect.stringContaining("too many open streams"), details: [] });
    // Another user is not counted with this one.
    expect((await get("/ui/api/stream", { cookie: app.admin.cookie! })).status).toBe(200);
    for (const r of held) await r.body!.cancel();
  });
});
