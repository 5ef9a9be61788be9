import { afterEach, expect, test } from "bun:test";
import { systemClock } from "../../src/lib/clock";
import { createIdFactory } from "../../src/lib/ids";
import { silentLog } from "../../src/lib/log";
import { startRelayClient } from "../../src/relay/client";
import { encodeHook, parseControl, type RelayedHook } from "../../src/relay/protocol";
import { createTestApp } from "../helpers/app";

/**
 * The laptop's side against an upstream that loses what the laptop acknowledged (killed between
 * the laptop's commit and its own settling): the hooks come again on the next connection, the
 * laptop acknowledges them again and its store holds each once, under upstream's id.
 */
const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

const newId = createIdFactory(systemClock);
const hook = (n: number): RelayedHook => ({
  id: newId(),
  channel: "stripe",
  method: "POST",
  query: "a=1",
  headers: { "content-type": "application/json", "stripe-signature": `t=1,v1=${n}` },
  body: new TextEncoder().encode(`{"n":${n}}`),
  ip: "203.0.113.9",
  createdAt: 1_700_000_000_000 + n,
  eventType: "invoice.paid",
});

test("hooks acknowledged together but never settled upstream are sent again: the laptop acknowledges them again and stores each once", async () => {
  const hooks = Array.from({ length: 20 }, (_, i) => hook(i));
  /** What each connection got acknowledged, in order. */
  const acked: string[][] = [];
  let resolveDone!: () => void;
  const done = new Promise<void>((r) => (resolveDone = r));
  const upstream = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req, server) {
      if (req.headers.get("upgrade") === "websocket") return server.upgrade(req) ? undefined : new Response("no", { status: 400 });
      return Response.json({ channel: "stripe", waiting: hooks.length, max_body: 1 << 20 });
    },
    websocket: {
      open(ws) {
        acked.push([]);
        ws.send(JSON.stringify({ type: "hello", waiting: hooks.length, channel: "stripe", max_body: 1 << 20 }));
        for (const h of hooks) ws.send(encodeHook(h));
      },
      message(ws, message) {
        const control = parseControl(String(message));
        if (control?.type !== "ack") return;
        const mine = acked[acked.length - 1]!;
        mine.push(...control.ids);
        if (mine.length < hooks.length) return;
        // The first connection: upstream dies before settling what was acknowledged.
        if (acked.length === 1) ws.close(1011, "upstream stopped");
        else resolveDone();
      },
    },
  });
  cleanup.push(() => upstream.stop(true));

  const laptop = createTestApp({ channels: [{ name: "stripe" }] });
  cleanup.push(laptop.close);
  const client = startRelayClient({
    target: { url: `http://127.0.0.1:${upstream.port}`, channel: "stripe", token: "mr_test" },
    identity: { listener: "laptop-test-1", host: "ada-laptop", startedAt: 1 },
    writer: laptop.writer,
    stored: async (id) => (await laptop.storage.hooks.getHookSummary(id)) !== undefined,
    maxBody: 1 << 20,
    clock: systemClock,
    log: silentLog,
  });
  cleanup.push(() => client.stop());
  await done;

  expect(acked.length).toBe(2);
  const ids = hooks.map((h) => h.id);
  expect([...acked[0]!].sort()).toEqual([...ids].sort());
  expect([...acked[1]!].sort()).toEqual([...ids].sort());
  const listed = (await laptop.call("GET", "/v1/hooks?channel=stripe&limit=100")).json as { id: string }[];
  expect(Array.isArray(listed)).toBe(true);
  const items = listed.map((h) => h.id);
  expect(items.sort()).toEqual([...ids].sort());
  const first = (await laptop.call("GET", `/v1/hooks/${hooks[3]!.id}`)).json as Record<string, unknown>;
  expect(first.id).toBe(hooks[3]!.id);
  expect(first.method).toBe("POST");
  expect(first.query).toBe("a=1");
  expect(first.ip).toBe("203.0.113.9");
});
