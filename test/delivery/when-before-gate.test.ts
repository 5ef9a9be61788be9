import { expect, test } from "bun:test";
import { receivers } from "../runner/receiver";
import { createRunnerApp, forward } from "../runner/setup";

/**
 * `when` is decided before the delivery gate: a hook the handler does not want ends `skipped` at
 * once, without taking one of the handler's rate slots or waiting for the next one.
 */
const receiver = receivers();

test("a skipped attempt takes no rate slot: it ends skipped while the wanted hook behind it still gets its slot", async () => {
  const target = receiver();
  const t = createRunnerApp({
    handlers: [forward("app", target.url, { rate: "1/m", when: "type:invoice.paid" })],
    channels: [{ name: "c", handlers: ["app"] }],
  });
  const first = await t.send("c", '{"type":"invoice.paid","n":1}');
  await t.runner.tick();
  const unwanted = await t.send("c", '{"type":"customer.created","n":2}');
  const wanted = await t.send("c", '{"type":"invoice.paid","n":3}');
  await t.runner.tick(); // the rate's next slot is a minute away
  expect((await t.attempts(unwanted)).map((a) => a.outcome)).toEqual(["skipped"]);
  expect((await t.attempts(wanted)).map((a) => a.outcome)).toEqual(["queued"]);
  expect(target.received).toHaveLength(1);
  t.clock.advance(60_000);
  await t.runner.tick();
  expect((await t.attempts(wanted)).map((a) => a.outcome)).toEqual(["succeeded"]);
  expect((await t.attempts(first)).map((a) => a.outcome)).toEqual(["succeeded"]);
  expect(target.received).toHaveLength(2);
});
