import { expect, test } from "bun:test";
import { eventually } from "../helpers/instances";
import { receivers } from "../runner/receiver";
import { createRunnerApp, forward } from "../runner/setup";

/**
 * Chaos `reorder` and `burst` hold hooks back; at the stop they stop waiting at once and leave the
 * held attempts queued for the next start (nothing sent, nothing lost).
 */
const receiver = receivers();

for (const chaos of [{ reorder: "1h" }, { burst: 5 }]) {
  test(`${Object.keys(chaos)[0]}: the stop does not wait for held hooks; nothing is sent and the attempts are kept for the next start`, async () => {
    const app = receiver();
    const t = createRunnerApp({
      handlers: [forward("app", app.url, { chaos, concurrency: 10 })],
      channels: [{ name: "c", handlers: ["app"] }],
    });
    const ids = [await t.send("c", '{"n":1}'), await t.send("c", '{"n":2}')];
    t.runner.start();
    // Both attempts were claimed (held by the chaos): none is due in the queue any more.
    await eventually(async () => (await Promise.all(ids.map((id) => t.attempts(id)))).every((a) => a[0]?.outcome !== "queued"), 5000, "claimed");
    await t.runner.stop();
    expect(app.received).toHaveLength(0);
    // Interrupted, nothing recorded: the next start queues them again (as after a crash).
    for (const id of ids) expect((await t.attempts(id)).map((a) => a.outcome)).toEqual(["running"]);
    expect((await Promise.all(ids.map((id) => t.hook(id)))).map((h) => h.status)).toEqual(["pending", "pending"]);
  });
}
