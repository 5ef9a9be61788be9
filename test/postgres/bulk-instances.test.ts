/**
 * Bulk actions across two PostgreSQL instances on one database: a job started on one is seen and
 * cancelled on the other, and a retry while both catch touches each matched hook exactly once.
 */
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { removeTempDirs } from "../helpers/binary";
import { killInstances, newDatabase, startInstance } from "../helpers/instances";
import { importHooks, retriedCounts, settled } from "../bulk/support";

afterEach(killInstances);
afterAll(removeTempDirs);

describe("bulk actions on two instances", () => {
  test("a retry started on A while A and B catch: every matched hook retried once; B shows the job", async () => {
    const url = await newDatabase();
    const a = await startInstance(url);
    const b = await startInstance(url);
    const matched = await importHooks(a, "shared", 800);
    let stop = false;
    const late: string[] = [];
    const catching = [a, b].map(async (via) => {
      while (!stop) {
        const id = ((await (await via.post("shared", "{}")).json()) as { id: string }).id;
        await via.call("POST", `/v1/hooks/${id}/fail`, { message: "late" });
        late.push(id);
      }
    });
    while (late.length < 4) await Bun.sleep(5);
    const started = await a.call("POST", "/v1/hooks/bulk", { query: "channel:shared", action: "retry" });
    expect(started.status).toBe(200);
    const job = await settled(b, started.json.id);
    stop = true;
    await Promise.all(catching);
    const counts = await retriedCounts(b, [...matched, ...late]);
    const lateIn = late.filter((id) => counts.get(id) === 1);
    expect(job).toMatchObject({ state: "done", total: 800 + lateIn.length, done: 800 + lateIn.length, skipped: 0 });
    for (const id of matched) expect(counts.get(id)).toBe(1);
    for (const id of late) expect(counts.get(id)).toBeLessThanOrEqual(1);
    expect(late.some((id) => id > started.json.until)).toBe(true);
    for (const id of lateIn) expect(id <= started.json.until).toBe(true);
  }, 120_000);

  test("a job started on A is cancelled from B", async () => {
    const url = await newDatabase();
    const a = await startInstance(url);
    const b = await startInstance(url);
    await importHooks(a, "big", 3000);
    const started = await a.call("POST", "/v1/hooks/bulk", { query: "channel:big", action: "retry" });
    const cancelled = await b.call("DELETE", `/v1/hooks/bulk/${started.json.id}`);
    if (cancelled.status === 409) return; // A finished first
    expect(cancelled.json.state).toBe("cancelled");
    const job = await settled(a, started.json.id);
    expect(job.state).toBe("cancelled");
    expect(job.done).toBeLessThan(3000);
  }, 120_000);
});
