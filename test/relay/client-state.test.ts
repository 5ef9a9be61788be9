/**
 * What the laptop's dashboard and metrics read of a relay (src/relay/client.ts state()): hooks
 * still waiting upstream, and how far behind it the laptop is, against a stand-in upstream in this
 * process that says what waits, sends hooks, says caught up and drops the connection.
 */
import { afterEach, expect, test } from "bun:test";
import type { ServerWebSocket } from "bun";
import type { BatchWriter } from "../../src/hooks/writer";
import { silentLog } from "../../src/lib/log";
import { startRelayClient } from "../../src/relay/client";
import { encodeHook } from "../../src/relay/protocol";
import { createFakeClock } from "../helpers/clock";

const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
});

async function until(check: () => boolean): Promise<void> {
  const deadline = performance.now() + 5000;
  while (!check()) {
    if (performance.now() > deadline) throw new Error("not within 5 s");
    await Bun.sleep(10);
  }
}

test("waiting counts down from what upstream said to 0 once caught up; lag is the last hook's age while catching up, 0 caught up, and the time since the connection was lost", async () => {
  const clock = createFakeClock();
  let peer: ServerWebSocket<unknown> | undefined;
  const acks: string[] = [];
  const upstream = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch(request, server) {
      if (request.headers.get("upgrade") === "websocket") return server.upgrade(request) ? undefined : new Response("no", { status: 400 });
      return Response.json({ channel: "stripe", waiting: 3, max_body: 1024 });
    },
    websocket: {
      open(ws) {
        peer = ws;
        ws.send(JSON.stringify({ type: "hello", waiting: 3, channel: "stripe", max_body: 1024 }));
      },
      message(_ws, text) {
        const m = JSON.parse(String(text));
        if (m.type === "ack") acks.push(...m.ids);
      },
    },
  });
  stops.push(async () => void upstream.stop(true));
  const written: string[] = [];
  const writer = { write: async (h: { id: string }) => void written.push(h.id) } as unknown as BatchWriter;
  const client = startRelayClient({
    target: { url: `http://127.0.0.1:${upstream.port}`, channel: "stripe", token: "t" },
    identity: { listener: "laptop-0001", host: "laptop", startedAt: clock.now() },
    writer,
    stored: async (id) => written.includes(id),
    clock,
    log: silentLog,
  });
  stops.push(() => client.stop());

  await until(() => client.state().connected);
  expect(client.state()).toMatchObject({ waiting: 3, caught_up: false });
  const now = clock.now();
  const hook = (id: string, ageMs: number) =>
    encodeHook({
      id,
      channel: "stripe",
      method: "POST",
      query: "",
      headers: {},
      ip: "10.0.0.1",
      createdAt: now - ageMs,
      eventType: "",
      body: new Uint8Array([1]),
    });
  peer!.send(hook("01jz0000000000000000000001", 90_000));
  peer!.send(hook("01jz0000000000000000000002", 60_000));
  await until(() => acks.length === 2);
  expect(client.state()).toMatchObject({ waiting: 1, received: 2, acknowledged: 2, lag_seconds: 60 });

  peer!.send(JSON.stringify({ type: "caught_up" }));
  await until(() => client.state().caught_up);
  clock.advance(120_000); // a quiet channel: caught up is not behind
  expect(client.state()).toMatchObject({ waiting: 0, lag_seconds: 0 });

  peer!.close(1011, "upstream stopping");
  await until(() => !client.state().connected);
  clock.advance(45_000);
  expect(client.state()).toMatchObject({ connected: false, lag_seconds: 45 });
});
