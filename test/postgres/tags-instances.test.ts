/**
 * Tags and read marks across two PostgreSQL instances on one database: a change made on A reaches
 * the streams open on B (the change feed), so dashboards on either follow it.
 */
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { AUTH } from "../helpers/app";
import { removeTempDirs } from "../helpers/binary";
import { killInstances, newDatabase, startInstance } from "../helpers/instances";
import { sseReader } from "../live/sse";

afterEach(killInstances);
afterAll(removeTempDirs);

describe("tags and read marks on two instances", () => {
  test("a tag added on A sends the hook, with its tags, on B's stream; a read mark on A its channel", async () => {
    const url = await newDatabase();
    const a = await startInstance(url);
    const b = await startInstance(url);
    const [id] = await a.catchHooks("shared", 1);
    const res = await fetch(`${b.url}/v1/stream?channel=shared&fields=summary`, { headers: AUTH });
    const stream = sseReader(res);
    expect((await a.call("POST", `/v1/hooks/${id}/tags`, { tags: ["billing"] })).status).toBe(200);
    const sent = await stream.next((e) => e.event === "hook" && JSON.parse(e.data).tags !== undefined);
    expect(JSON.parse(sent.data)).toMatchObject({ id, tags: ["billing"] });
    await stream.next((e) => e.event === "channel");
    expect((await a.call("POST", `/v1/hooks/${id}/read`)).status).toBe(200);
    // The channel comes again (a hook caught just before may still come first: its contract
    // check's news; that a read mark sends no hook is test/tags/tags-stream.test.ts's).
    const channel = await stream.next((e) => e.event === "channel");
    expect(JSON.parse(channel.data)).toMatchObject({ name: "shared" });
    await stream.cancel();
  }, 60_000);
});
