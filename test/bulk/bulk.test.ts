/**
 * Bulk actions by query (POST /v1/hooks/bulk, the job resource), on every target
 * (MAILROOM_TEST_TARGET): exact under concurrent catching, dry runs, cancel, export, errors.
 */
import { describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AUTH, eventually, startTarget, TARGET, TOKEN } from "../helpers/target";
import { importHooks, retriedCounts, settled } from "./support";

describe("bulk actions by query", () => {
  test("a retry while catching goes on: every matched hook retried exactly once, none caught meanwhile, no other channel", async () => {
    const t = await startTarget();
    const matched = await importHooks(t, "bulk", 1200);
    const other = await importHooks(t, "other", 50);
    const dry = await t.call("POST", "/v1/hooks/bulk", { query: "channel:bulk", action: "retry", dry_run: true });
    expect(dry.status).toBe(200);
    expect(dry.json).toEqual({ action: "retry", query: "channel:bulk", count: 1200, until: other.at(-1) });
    // Nothing was touched by the dry run.
    expect((await t.call("GET", "/v1/channels/bulk")).json.stats).toMatchObject({ failed: "1200", pending: "0" });

    // Catching goes on at a steady rate, each hook failed as soon as it is caught: it matches the
    // query, but it came after the job's start.
    let stop = false;
    const late: string[] = [];
    const catching = (async () => {
      while (!stop) {
        const res = await t.post("bulk", JSON.stringify({ late: late.length }));
        const id = ((await res.json()) as { id: string }).id;
        await t.call("POST", `/v1/hooks/${id}/fail`, { message: "late" });
        late.push(id);
      }
    })();
    while (late.length < 3) await Bun.sleep(5);
    const started = await t.call("POST", "/v1/hooks/bulk", { query: "channel:bulk", action: "retry" });
    expect(started.status).toBe(200);
    expect(started.json).toMatchObject({ action: "retry", query: "channel:bulk", state: "running", url: null });
    const before = late.length;
    const job = await settled(t, started.json.id);
    stop = true;
    await catching;
    expect(late.length).toBeGreaterThan(before);
    const counts = await retriedCounts(t, [...matched, ...late, ...other.slice(0, 10)]);
    // A late hook caught before the start was in the job only if it had failed by then (the
    // snapshot takes the statuses retry applies to): each is retried once or not at all.
    const lateIn = late.filter((id) => counts.get(id) === 1);
    expect(job).toMatchObject({ state: "done", total: 1200 + lateIn.length, done: 1200 + lateIn.length, skipped: 0, failed: 0 });
    for (const id of matched) expect(counts.get(id)).toBe(1);
    for (const id of late) expect(counts.get(id)).toBeLessThanOrEqual(1);
    for (const id of lateIn) expect(id <= started.json.until).toBe(true);
    expect(late.filter((id) => id > started.json.until).length).toBeGreaterThan(0);
    for (const id of other.slice(0, 10)) expect(counts.get(id)).toBe(0);
    expect((await t.call("GET", "/v1/channels/other")).json.stats).toMatchObject({ failed: "50" });
    // The job is listed, newest first.
    expect((await t.call("GET", "/v1/hooks/bulk")).json[0]).toEqual(job);
  }, 120_000);

  // A data file with durability "full": each batch commits as caught batches do, its WAL synced off the thread.
  test.skipIf(TARGET !== "source")(
    "a retry on a data file with durability full retries every match once, catching beside it",
    async () => {
      const dir = mkdtempSync(join(tmpdir(), "mailroom-bulk-full-"));
      try {
        const t = await startTarget({ storage: { path: join(dir, "mailroom.db"), durability: "full" } });
        const matched = await importHooks(t, "bulk", 700);
        const caught: Promise<Response>[] = [];
        const started = await t.call("POST", "/v1/hooks/bulk", { query: "channel:bulk", action: "retry" });
        for (let i = 0; i < 50; i++) caught.push(t.post("live", JSON.stringify({ i })));
        const job = await settled(t, started.json.id);
        expect(job).toMatchObject({ state: "done", total: 700, done: 700, skipped: 0 });
        expect((await Promise.all(caught)).map((r) => r.status)).toEqual(Array(50).fill(200));
        const counts = await retriedCounts(t, matched);
        for (const id of matched) expect(counts.get(id)).toBe(1);
        expect((await t.call("GET", "/v1/channels/bulk")).json.stats).toMatchObject({ failed: "0", pending: "700" });
        await t.stop();
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    60_000,
  );

  test("a status across channels takes every channel's matches, more than a page of them in one, and only the channels a limited key sees", async () => {
    const t = await startTarget({
      api_keys: [
        { label: "test", token: TOKEN },
        { label: "stripe-bot", token: "scoped-token-0123456789", scopes: ["read", "act"], channels: ["stripe-*"] },
      ],
    });
    const big = await importHooks(t, "stripe-live", 1100);
    const small = await importHooks(t, "stripe-test", 7);
    const other = await importHooks(t, "shop", 5);
    await importHooks(t, "shop", 4, "discarded");
    await importHooks(t, "stripe-live", 3, "handled");
    const scoped = { authorization: "Bearer scoped-token-0123456789" };
    const dry = await t.call("POST", "/v1/hooks/bulk", { query: "status:failed", action: "retry", dry_run: true }, scoped);
    expect(dry.json.count).toBe(1107);
    // Without a status, retry takes the failed and the discarded ones.
    expect((await t.call("POST", "/v1/hooks/bulk", { query: "", action: "retry", dry_run: true })).json.count).toBe(1116);
    const started = await t.call("POST", "/v1/hooks/bulk", { query: "status:failed", action: "retry" }, scoped);
    expect(await settled(t, started.json.id, scoped)).toMatchObject({ state: "done", total: 1107, done: 1107, skipped: 0 });
    const counts = await retriedCounts(t, [...big.slice(0, 5), ...big.slice(-5), ...small, ...other]);
    for (const id of [...big.slice(0, 5), ...big.slice(-5), ...small]) expect(counts.get(id)).toBe(1);
    for (const id of other) expect(counts.get(id)).toBe(0);
    expect((await t.call("GET", "/v1/channels/stripe-live")).json.stats).toMatchObject({ failed: "0", pending: "1100", handled: "3" });
    expect((await t.call("GET", "/v1/channels/shop")).json.stats).toMatchObject({ failed: "5", discarded: "4" });
  }, 60_000);

  test("discard by a query of the language; a second run skips what the first did", async () => {
    const t = await startTarget();
    await importHooks(t, "shop", 30, "pending");
    await importHooks(t, "shop", 5, "handled");
    const job = await settled(t, (await t.call("POST", "/v1/hooks/bulk", { query: "channel:shop -status:handled", action: "discard" })).json.id);
    expect(job).toMatchObject({ state: "done", total: 30, done: 30 });
    expect((await t.call("GET", "/v1/channels/shop")).json.stats).toMatchObject({ discarded: "30", handled: "5", pending: "0" });
    expect((await t.call("POST", "/v1/hooks/bulk", { query: "channel:shop", action: "discard", dry_run: true })).json.count).toBe(0);
  }, 60_000);

  test("delete and export take every match", async () => {
    const t = await startTarget();
    const ids = await importHooks(t, "gone", 12, "handled");
    await importHooks(t, "kept", 3, "handled");
    const exported = await t.fetch("/v1/hooks/bulk", {
      method: "POST",
      headers: { ...AUTH, "content-type": "application/json" },
      body: JSON.stringify({ query: "channel:gone", action: "export" }),
    });
    expect(exported.status).toBe(200);
    expect(exported.headers.get("content-type")).toStartWith("application/x-ndjson");
    expect(exported.headers.get("mailroom-bulk-count")).toBe("12");
    const lines = (await exported.text())
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.id)).toEqual([...ids].reverse());
    const job = await settled(t, (await t.call("POST", "/v1/hooks/bulk", { query: "channel:gone", action: "delete" })).json.id);
    expect(job).toMatchObject({ state: "done", total: 12, done: 12 });
    expect((await t.call("GET", `/v1/hooks/${ids[0]}`)).status).toBe(404);
    expect((await t.call("GET", "/v1/channels/kept")).json.stats.handled).toBe("3");
  }, 60_000);

  test("tag, untag and mark-read take every match, once; tags are required by them and refused elsewhere", async () => {
    const t = await startTarget();
    await importHooks(t, "tagme", 250, "handled");
    await importHooks(t, "other", 3, "handled");
    const run = async (body: Record<string, unknown>) => settled(t, (await t.call("POST", "/v1/hooks/bulk", body)).json.id);
    expect(await run({ query: "channel:tagme", action: "tag", tags: ["billing", "big", "big"] })).toMatchObject({
      state: "done",
      total: 250,
      done: 250,
      skipped: 0,
    });
    expect(await run({ query: "channel:tagme", action: "tag", tags: ["billing", "big"] })).toMatchObject({ total: 250, done: 0, skipped: 250 });
    // Counted by a dry run: what a delete would touch (any status).
    const tagged = async (q: string) => (await t.call("POST", "/v1/hooks/bulk", { query: q, action: "delete", dry_run: true })).json.count as number;
    expect(await tagged("tag:billing")).toBe(250);
    expect(await run({ query: "tag:billing", action: "untag", tags: ["big"] })).toMatchObject({ done: 250 });
    expect(await tagged("tag:big")).toBe(0);
    expect(await tagged("tag:billing")).toBe(250);
    expect(await tagged("is:unread channel:tagme")).toBe(250);
    expect(await run({ query: "channel:tagme", action: "mark-read" })).toMatchObject({ done: 250 });
    expect(await tagged("is:unread channel:tagme")).toBe(0);
    expect(await tagged("is:unread channel:other")).toBe(3);
    for (const body of [
      { query: "channel:tagme", action: "tag" },
      { query: "channel:tagme", action: "retry", tags: ["x"] },
      { query: "channel:tagme", action: "tag", tags: ["Not A Tag"] },
    ])
      expect((await t.call("POST", "/v1/hooks/bulk", body)).json).toMatchObject({ code: 3, details: [] });
  }, 60_000);

  test("a job cancelled stops after the batch in flight; cancelling it again is a 409", async () => {
    const t = await startTarget();
    await importHooks(t, "big", 3000);
    const started = await t.call("POST", "/v1/hooks/bulk", { query: "channel:big", action: "retry" });
    const cancelled = await t.call("DELETE", `/v1/hooks/bulk/${started.json.id}`);
    if (cancelled.status === 409) return; // it ended first on a fast machine: nothing to cancel
    expect(cancelled.status).toBe(200);
    expect(cancelled.json).toMatchObject({ state: "cancelled", message: "cancelled by api:test" });
    const again = await t.call("DELETE", `/v1/hooks/bulk/${started.json.id}`);
    expect(again.status).toBe(409);
    const job = await settled(t, started.json.id);
    expect(job.state).toBe("cancelled");
    expect(job.done).toBeLessThan(3000);
    // The batch in flight when it was cancelled still ends and is counted: wait for its count.
    await eventually("the batch in flight counted", async () => {
      const pending = Number((await t.call("GET", "/v1/channels/big")).json.stats.pending);
      return pending === (await t.call("GET", `/v1/hooks/bulk/${started.json.id}`)).json.done || undefined;
    });
  }, 60_000);

  test("bad input answers 400 with the error body, never 500; unknown jobs 404", async () => {
    const t = await startTarget();
    const bad = async (body: unknown) => {
      const res = await t.call("POST", "/v1/hooks/bulk", body);
      expect(res.status).toBe(400);
      expect(res.json).toEqual({ code: 3, message: expect.any(String), details: [] });
      return res.json.message as string;
    };
    expect(await bad({ query: "(unbalanced", action: "retry" })).toContain("query");
    expect(await bad({ query: "x", action: "explode" })).toContain("action");
    expect(await bad({ query: "x", action: "retry", url: "http://example.com/" })).toContain("url");
    expect(await bad({ query: "x", action: "send" })).toContain("url");
    expect(await bad({ query: "x".repeat(2000), action: "retry" })).toContain("query");
    expect(await bad({ query: "a\u0000b\u202e", action: "retry", extra: 1 })).toBeString();
    const linkLocal = await t.call("POST", "/v1/hooks/bulk", { query: "x", action: "send", url: "http://169.254.169.254/latest" });
    expect(linkLocal.status).toBe(403);
    expect((await t.call("GET", "/v1/hooks/bulk/01kb0000000000000000000000")).status).toBe(404);
    expect((await t.call("DELETE", "/v1/hooks/bulk/01kb0000000000000000000000")).status).toBe(404);
    expect((await t.call("GET", "/v1/hooks/bulk/nope")).status).toBe(400);
    expect((await t.call("POST", "/v1/hooks/bulk", { query: "x", action: "retry" }, {})).status).toBe(401);
  });
});
