/**
 * has:refusal across two PostgreSQL instances on one database: a delivery refused by A and caught
 * by B is found on either (B hears of A's refusals through the change feed and reads them from the
 * database).
 */
import { afterAll, afterEach, expect, test } from "bun:test";
import { sign } from "@octokit/webhooks-methods";
import { AUTH } from "../helpers/app";
import { removeTempDirs } from "../helpers/binary";
import { eventually, killInstances, newDatabase, startInstance } from "../helpers/instances";
import { sseReader } from "../live/sse";

afterEach(killInstances);
afterAll(removeTempDirs);

const GH = "gh-secret";
const RAW = { guards: [{ name: "gh", kind: "github", secret: GH }], channels: [{ name: "github", guards: ["gh"] }] };

test("a delivery refused by one instance and caught by another is found by has:refusal on both", async () => {
  const url = await newDatabase();
  const a = await startInstance(url, RAW);
  const b = await startInstance(url, RAW);
  const body = '{"action":"opened"}';
  const send = async (to: typeof a, delivery: string, secret: string) =>
    to.post("github", body, { "x-hub-signature-256": await sign(secret, body), "x-github-delivery": delivery, "content-type": "application/json" });

  // B's stream shows A's refusal once the feed brought it: B knows the channel was refused then.
  const stream = sseReader(await fetch(`${b.url}/v1/stream?channel=github`, { headers: AUTH }));
  expect((await send(a, "d-1", "wrong")).status).toBe(401);
  await stream.next((e) => e.event === "refusal");
  await stream.cancel();
  const caught = await send(b, "d-1", GH);
  expect(caught.status).toBe(200);
  const { id } = (await caught.json()) as { id: string };
  const other = await send(b, "d-2", GH);
  expect(other.status).toBe(200);
  const otherId = ((await other.json()) as { id: string }).id;
  const found = async (on: typeof a, q: string) => ((await on.call("GET", `/v1/hooks?q=${encodeURIComponent(q)}`)).json as { id: string }[]).map((h) => h.id);
  await eventually(async () => (await found(b, "has:refusal")).length > 0, 10_000, "the hook marked");
  for (const on of [a, b]) {
    expect(await found(on, "has:refusal")).toEqual([id]);
    expect(await found(on, "-has:refusal")).toEqual([otherId]);
  }
}, 60_000);
