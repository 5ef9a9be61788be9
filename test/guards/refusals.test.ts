import { describe, expect, test } from "bun:test";
import { openDatabase } from "../../src/db/sqlite/open";
import { createRefusals, DIAGNOSIS_BATCH_MS } from "../../src/hooks/guards";
import { createRefusalStore } from "../../src/db/sqlite/refusal-store";
import { createFakeClock } from "../helpers/clock";

const refusal = (n: number, channel = "c") => ({
  kind: "refused" as const,
  id: `01jd0000000000000000000${String(n).padStart(3, "0")}`,
  channel,
  guard: "sig",
  status: 401,
  reason: `reason ${n}`,
  ip: "10.0.0.1",
  method: "POST",
  query: `channel=${channel}`,
  headers: { "x-hub-signature-256": `sha256=${n}` },
});

function setup(kept?: number) {
  const db = openDatabase({ path: ":memory:", durability: "normal" });
  const clock = createFakeClock();
  const count = () => db.$client.query<{ n: number }, []>("SELECT count(*) AS n FROM refusals").get()!.n;
  return { db, clock, count, refusals: createRefusals({ store: createRefusalStore(db), clock, kept }) };
}

describe("refusals", () => {
  test("record() only buffers; the batch is written on the next turn of the event loop", async () => {
    const { refusals, count } = setup();
    refusals.record(refusal(1));
    refusals.record(refusal(2));
    expect(count()).toBe(0);
    await new Promise((resolve) => setImmediate(resolve));
    expect(count()).toBe(2);
  });

  test("list() writes what is buffered and returns newest first, with the time of refusal", async () => {
    const { refusals, clock } = setup();
    refusals.record(refusal(1));
    clock.advance(1000);
    refusals.record(refusal(2));
    const listed = await refusals.list({ limit: 10 });
    expect(listed.map((r) => r.reason)).toEqual(["reason 2", "reason 1"]);
    expect(listed[0]).toEqual({ ...refusal(2), createdAt: clock.now(), diagnosis: null });
    expect(await refusals.get(refusal(1).id)).toEqual({ ...refusal(1), createdAt: clock.now() - 1000, diagnosis: null });
    expect(await refusals.get("01jd0000000000000000000999")).toBeUndefined();
  });

  test("filters by channel and guard, and honours limit", async () => {
    const { refusals } = setup();
    for (let i = 0; i < 5; i++) refusals.record(refusal(i, i % 2 ? "odd" : "even"));
    refusals.record({ ...refusal(9, "odd"), guard: "ips" });
    expect((await refusals.list({ channel: "odd", limit: 10 })).map((r) => r.reason)).toEqual(["reason 9", "reason 3", "reason 1"]);
    expect((await refusals.list({ channel: "odd", guard: "sig", limit: 10 })).map((r) => r.reason)).toEqual(["reason 3", "reason 1"]);
    expect((await refusals.list({ limit: 2 })).map((r) => r.reason)).toEqual(["reason 9", "reason 4"]);
  });

  test("only the newest `kept` are kept, across batches and within one", async () => {
    const { refusals, count } = setup(3);
    for (let i = 0; i < 5; i++) refusals.record(refusal(i));
    await refusals.flush();
    expect(count()).toBe(3);
    refusals.record(refusal(5));
    expect((await refusals.list({ limit: 10 })).map((r) => r.reason)).toEqual(["reason 5", "reason 4", "reason 3"]);
    expect(count()).toBe(3);
  });

  test("long fields are cut so a sender cannot fill the table with one request", async () => {
    const { refusals } = setup();
    refusals.record({ ...refusal(1), ip: "x".repeat(5000), method: "M".repeat(5000), reason: "r".repeat(5000) });
    const [r] = await refusals.list({ limit: 1 });
    expect([r!.ip.length, r!.method.length, r!.reason.length]).toEqual([64, 32, 500]);
  });

  test("record() and flush() never throw, even when the database is gone", async () => {
    const { refusals, db } = setup();
    db.$client.close();
    expect(() => refusals.record(refusal(1))).not.toThrow();
    await expect(refusals.flush()).resolves.toBeUndefined();
    expect(() => refusals.record(null as any)).not.toThrow();
  });

  test("a flood past the diagnosis budget is diagnosed `skipped`, not left null", async () => {
    const db = openDatabase({ path: ":memory:", durability: "normal" });
    const told: string[] = [];
    const refusals = createRefusals({
      store: createRefusalStore(db),
      clock: createFakeClock(),
      // The first diagnosis uses up the whole batch's budget (a slow scheme), the rest are skipped.
      diagnose: () => {
        const until = performance.now() + DIAGNOSIS_BATCH_MS + 5;
        while (performance.now() < until);
        return { cause: "unknown", message: "none of the causes", tried: ["wrong_secret"] };
      },
      diagnosed: (r) => told.push(`${r.id} ${r.diagnosis?.cause}`),
    });
    const request = { method: "POST", query: "", headers: new Headers(), body: new Uint8Array(2), ip: "10.0.0.1" };
    for (let i = 0; i < 3; i++) refusals.record({ ...refusal(i), request });
    const listed = await refusals.list({ limit: 10 });
    expect(listed.map((r) => r.diagnosis?.cause)).toEqual(["skipped", "skipped", "unknown"]);
    expect(listed[0]!.diagnosis).toEqual({ cause: "skipped", message: expect.stringContaining("budget"), tried: [] });
    expect(told).toEqual([`${refusal(0).id} unknown`, `${refusal(1).id} skipped`, `${refusal(2).id} skipped`]);
  });

  test("the refused request is saved with its refusal, so its diagnosis is run again after a restart", async () => {
    const db = openDatabase({ path: ":memory:", durability: "normal" });
    const clock = createFakeClock();
    const seen: { body: string; sig: string | null; cookie: string | null; at?: number }[] = [];
    const diagnose = (_guard: string, req: { body: Uint8Array; headers: Headers }, _reason: string, at?: number) => {
      seen.push({ body: new TextDecoder().decode(req.body), sig: req.headers.get("x-sig"), cookie: req.headers.get("cookie"), at });
      return { cause: "wrong_secret" as const, message: "another guard's secret", guard: "old", tried: ["clock skew", "wrong secret"] };
    };
    const first = createRefusals({ store: createRefusalStore(db), clock, diagnose });
    const headers = new Headers({ "x-sig": "abc", cookie: "session=s3cret" });
    const request = { method: "POST", query: "a=1", headers, body: new TextEncoder().encode('{"x":"\u0000<script>"}'), ip: "10.0.0.1" };
    first.record({ ...refusal(1), request });
    first.record(refusal(2));
    await first.flush();
    const refusedAt = clock.now();
    clock.advance(3_600_000);
    // A new process: nothing in memory, only what was stored.
    const later = createRefusals({ store: createRefusalStore(db), clock, diagnose });
    const again = await later.rediagnose(refusal(1).id);
    expect(again?.diagnosis?.cause).toBe("wrong_secret");
    expect(seen.at(-1)).toEqual({ body: '{"x":"\u0000<script>"}', sig: "abc", cookie: null, at: refusedAt });
    expect((await later.get(refusal(1).id))?.diagnosis?.guard).toBe("old");
    // Without a saved request (not a signature refusal): unchanged, null.
    expect((await later.rediagnose(refusal(2).id))?.diagnosis).toBeNull();
    expect(await later.rediagnose("01jd0000000000000000000999")).toBeUndefined();
  });
});
