import { expect, test } from "bun:test";
import { createDelivery } from "../../src/delivery";
import { createFakeClock } from "../helpers/clock";

/**
 * Issue 30: a channel's secret signs only what the config file's handlers send. Where a handler was
 * defined is its origin, told by the runner, never guessed from its name: a dashboard forward named
 * like a handler of the config file does not get the channel's secret.
 */
test("the channel's re-signing applies to a handler of the config file, not to a dashboard forward of the same name", () => {
  const port = createDelivery({
    config: {
      channels: [{ name: "app", handlers: ["out"], guards: [], resign: { kind: "gitlab", secret: "CHANNEL_SECRET" } }],
      handlers: [{ name: "out", kind: "forward", url: "http://127.0.0.1:1/" }],
    } as never,
    clock: createFakeClock(),
  });
  const forward = { name: "out", url: "http://127.0.0.1:1/" } as never;
  expect(port("out", forward, "config")).toBeFunction();
  expect(port("out", forward, "dashboard")).toBeUndefined();
});
