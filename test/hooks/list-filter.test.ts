import { expect, test } from "bun:test";
import { startTarget } from "../helpers/target";

test("GET /v1/hooks?channel= of a channel that does not exist is a filter that matches nothing: 200 [] (docs/management-api.md)", async () => {
  const t = await startTarget();
  await t.catchHooks("real", 1);
  const unknown = await t.call("GET", "/v1/hooks?channel=never-seen");
  expect(unknown.status).toBe(200);
  expect(unknown.json).toEqual([]);
  expect((await t.call("GET", "/v1/channels/never-seen")).status).toBe(404);
  await t.call("DELETE", "/v1/channels/real");
  expect((await t.call("GET", "/v1/hooks?channel=real")).json).toEqual([]);
  await t.stop();
});
