import { afterAll, expect, test } from "bun:test";
import { connect } from "node:net";
import { join } from "node:path";
import type { Change } from "../../src/hooks/changes";
import { createTestApp } from "../helpers/app";
import { removeTempDirs, tempDir } from "../helpers/binary";

/**
 * A pipelined request that arrives while the first's batch is being made durable (in process:
 * the WAL sync is held until the test lets it go, so the moment is certain, not hoped for). Bun
 * then aborts the first request and closes the connection: its hook cannot be answered, so it must
 * not be kept (test/hooks/pipelining.test.ts hits the same moment by chance on every target).
 */

afterAll(removeTempDirs);

/** A WAL sync held (the first one only) until `release`; `syncing` resolves when it starts. */
function heldFirstSync() {
  const { promise: syncing, resolve: started } = Promise.withResolvers<void>();
  const { promise: released, resolve: release } = Promise.withResolvers<void>();
  let first = true;
  const syncWal = () => {
    if (!first) return Promise.resolve();
    first = false;
    started();
    return released;
  };
  return { syncWal, syncing, release };
}

const post = (channel: string, body: string, headers = "") =>
  `POST /?channel=${channel} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n${headers}Content-Length: ${body.length}\r\n\r\n${body}`;

/** A raw connection: `send` writes, `closed` resolves with what the server wrote once it closed. */
function rawConnection(url: string) {
  const { port } = new URL(url);
  let got = "";
  const { promise: closed, resolve } = Promise.withResolvers<string>();
  const socket = connect(Number(port), "127.0.0.1");
  socket.on("data", (d) => (got += d.toString("latin1")));
  socket.on("close", () => resolve(got));
  socket.on("error", () => {});
  return { send: (text: string) => socket.write(text), closed };
}

async function pipelinedDuringSync(channel: string, headers = "") {
  const { syncWal, syncing, release } = heldFirstSync();
  const t = createTestApp(
    {
      storage: { durability: "full" },
      handlers: [{ name: "fw", kind: "forward", url: "http://127.0.0.1:9/" }],
      channels: [
        { name: "pipe", handlers: ["fw"] },
        { name: "dd", dedup: {} },
      ],
    },
    { dbPath: join(tempDir("mailroom-pipe-"), "m.db"), syncWal },
  );
  const caught: string[] = [];
  t.storage.changes.subscribe((c: Change) => {
    if (c.kind === "caught") caught.push(...c.hooks.map((h) => h.id));
  });
  const server = t.listen();
  const conn = rawConnection(server.url);
  conn.send(post(channel, '{"n":1}', headers));
  await syncing; // its batch is committed, its WAL sync held
  conn.send(post(channel, '{"n":2}', headers));
  const got = await conn.closed; // Bun aborted the first request and closed the connection
  release();
  return { t, server, got, caught };
}

const ids = async (t: ReturnType<typeof createTestApp>, channel: string) =>
  ((await t.call("GET", `/v1/hooks?channel=${channel}`)).json as { id: string }[]).map((h) => h.id);

test("a pipelined request arriving while the first's batch syncs: the first hook, answered to nobody, leaves no trace", async () => {
  const { t, server, got, caught } = await pipelinedDuringSync("pipe");
  expect(got).toBe(""); // neither was answered
  // A hook sent after them went through the same writer: the pipelined one is settled by now.
  const control = await t.post("pipe", '{"n":3}');
  expect(control.status).toBe(200);
  const { id } = (await control.json()) as { id: string };
  expect(await ids(t, "pipe")).toEqual([id]);
  expect((await t.call("GET", "/v1/channels/pipe")).json.stats).toEqual({ pending: "1", handled: "0", failed: "0", discarded: "0" });
  // Never announced (no stream event, no search entry, no metrics), and no delivery queued for it.
  expect(caught).toEqual([id]);
  expect(t.db.$client.query("SELECT hook_id AS hookId FROM attempts").all()).toEqual([{ hookId: id }]);
  await server.stop();
  t.close();
});

test("on a channel with dedup, the first hook of a delivery id is kept: the sender's retry is answered with its id", async () => {
  const { t, server, got } = await pipelinedDuringSync("dd", "X-GitHub-Delivery: d-1\r\n");
  expect(got).toBe("");
  const retry = await t.post("dd", '{"n":1}', { "content-type": "application/json", "x-github-delivery": "d-1" });
  expect(retry.status).toBe(200);
  const { id } = (await retry.json()) as { id: string };
  expect(await ids(t, "dd")).toEqual([id]);
  expect((await t.call("GET", "/v1/channels/dd/dedup")).json.dropped).toBe("1"); // the retry was a repeat
  await server.stop();
  t.close();
});
