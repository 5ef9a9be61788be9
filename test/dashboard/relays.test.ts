import { expect, test } from "bun:test";
import { dashboardApp } from "./support";

test("the dashboard shows each relay key's relay: no listener yet, and the hooks waiting for it", async () => {
  const app = await dashboardApp({
    api_keys: [
      { label: "test", token: "test-token-0123456789" },
      { label: "laptop", token: "relay-token-0123", scopes: ["relay"], channels: ["stripe"] },
    ],
  });
  await app.catchHooks("stripe", 3);
  await app.runner.tick();
  const res = await app.call("GET", "/ui/api/relays", undefined, app.member);
  expect(res.status).toBe(200);
  expect(res.json).toEqual({
    upstream: [
      {
        handler: "relay:laptop:stripe",
        label: "laptop",
        channel: "stripe",
        connected: false,
        listener: null,
        waiting: 3,
        lag_seconds: 0,
        delivered: 0,
        acknowledged: 0,
      },
    ],
    listening: [],
  });
  // Waiting is not failing: the hooks stay pending, their relay attempts queued.
  expect((await app.call("GET", "/v1/channels/stripe")).json.stats).toMatchObject({ pending: "3", failed: "0" });
  expect((await app.call("GET", "/ui/api/relays")).status).toBe(401);
});
