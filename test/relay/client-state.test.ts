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

test("waiting and lag are what upstream last said (at connecting, then with each heartbeat), aged since; not connected, lag is the time since the connection was lost", async () => {
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
        ws.send(JSON.stringify({ type: "hello", waiting: 3, channel: "stripe", max_body: 1024, lag_seconds: 90 }));
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
    maxBody: 1 << 20,
    clock,
    log: silentLog,
  });
  stops.push(() => client.stop());
  const heard = async (message: object, check: () => boolean) => (peer!.send(JSON.stringify(message)), await until(check));

  await until(() => client.state().connected);
  expect(client.state()).toMatchObject({ waiting: 3, lag_seconds: 90, caught_up: false });
  clock.advance(2_000);
  expect(client.state().lag_seconds).toBe(92);
  // Hooks received, a repeat among them, change nothing until upstream says so.
  const hook = (id: string) =>
    encodeHook({
      id,
      channel: "stripe",
      method: "POST",
      query: "",
      headers: {},
      ip: "10.0.0.1",
      createdAt: clock.now() - 90_000,
      eventType: "",
      body: new Uint8Array([1]),
    });
  for (const id of ["01jz0000000000000000000001", "01jz0000000000000000000001", "01jz0000000000000000000002"]) peer!.send(hook(id));
  await until(() => acks.length === 3);
  expect(client.state()).toMatchObject({ waiting: 3, received: 3, acknowledged: 3 });
  await heard({ type: "heartbeat", waiting: 1, lag_seconds: 30 }, () => client.state().waiting === 1);
  expect(client.state().lag_seconds).toBe(30);
  await heard({ type: "caught_up" }, () => client.state().caught_up);
  await heard({ type: "heartbeat", waiting: 0, lag_seconds: 0 }, () => client.state().waiting === 0);
  clock.advance(120_000); // a quiet channel: nothing waiting is not behind
  expect(client.state()).toMatchObject({ waiting: 0, lag_seconds: 0 });
  // A flood after caught up: upstream holds hooks back, and says so.
  await heard({ type: "heartbeat", waiting: 500, lag_seconds: 4 }, () => client.state().waiting === 500);
  expect(client.state()).toMatchObject({ caught_up: true, lag_seconds: 4 });

  peer!.close(1011, "upstream stopping");
  await until(() => !client.state().connected);
  clock.advance(45_000);
  expect(client.state()).toMatchObject({ connected: false, waiting: 500, lag_seconds: 45 });
});
