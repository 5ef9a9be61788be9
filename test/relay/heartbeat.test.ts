/**
 * Upstream's hello and heartbeats tell the listener what waits for it (queued or sent and not
 * acknowledged) and how old the oldest is: the laptop's waiting and lag (client-state.test.ts) are
 * what upstream says.
 */
import { afterEach, expect, test } from "bun:test";
import { createTestApp } from "../helpers/app";
import { eventually } from "../helpers/instances";

const RELAY_TOKEN = "relay-heartbeat-token-0123";
const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

test("hello and each heartbeat say how many hooks wait for the listener and the oldest's age", async () => {
  const app = createTestApp({
    api_keys: [
      { label: "test", token: "test-token-0123456789" },
      { label: "laptop", token: RELAY_TOKEN, scopes: ["relay"], channels: ["stripe"] },
    ],
  });
  cleanup.push(() => app.close());
  await app.catchHooks("stripe", 3);
  await app.writer.drain();
  const { url, stop } = app.listen();
  cleanup.push(stop);
  const controls: Record<string, unknown>[] = [];
  let frames = 0;
  const ws = new WebSocket(`${url.replace(/^http/, "ws")}/relay/v1/channels/stripe`, {
    headers: { authorization: `Bearer ${RELAY_TOKEN}`, "x-mailroom-listener": "laptop-0001", "x-mailroom-host": "laptop", "x-mailroom-started": "1" },
  } as unknown as string[]);
  ws.binaryType = "arraybuffer";
  ws.onmessage = (event) => (typeof event.data === "string" ? controls.push(JSON.parse(event.data)) : frames++);
  cleanup.push(() => ws.close());

  await eventually(async () => controls.length > 0, 10_000, "hello");
  void app.runner.tick(); // the runner sends what is due to the listener now connected (its attempts wait for acknowledgements)
  await eventually(async () => frames === 3, 10_000, "the three hooks sent");
  expect(controls[0]).toMatchObject({ type: "hello", waiting: 3 });
  expect(typeof controls[0]!.lag_seconds).toBe("number");
  // None acknowledged: all three still wait, sent and in flight (the first heartbeat comes within 5 s).

  await eventually(async () => controls.some((c) => c.type === "heartbeat"), 10_000, "a heartbeat");
  const beat = controls.find((c) => c.type === "heartbeat")!;
  expect(beat).toMatchObject({ waiting: 3 });
  expect(beat.lag_seconds as number).toBeGreaterThanOrEqual(0);
}, 20_000);
