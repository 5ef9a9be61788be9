import { expect, test } from "bun:test";
import { SQL } from "bun";
import { singleton } from "../../src/db/pg/singleton";
import { pgFeed } from "../../src/db/pg/feed";
import { silentLog } from "../../src/lib/log";
import { freshDatabase } from "../helpers/postgres";

/** A worker that counts its runs. */
function counting(name: string) {
  const runs: number[] = [];
  return { runs, worker: { name, tick: async (now: number) => (runs.push(now), now + 1000) } };
}

test("a singleton worker runs on one instance at a time; when the holder's connection goes, another takes over", async () => {
  const url = await freshDatabase();
  const [sqlA, sqlB] = [new SQL(url), new SQL(url)];
  const [a, b] = [counting("retention"), counting("retention")];
  const [onA, onB] = [singleton(sqlA, a.worker), singleton(sqlB, b.worker)];
  expect(await onA.tick(1)).toBe(1001);
  expect(await onB.tick(1)).toBeGreaterThan(1001); // not its turn: it tries again later
  await onA.tick(2);
  await onB.tick(2);
  expect({ a: a.runs, b: b.runs }).toEqual({ a: [1, 2], b: [] });
  // Another worker's lock is its own.
  const other = counting("simulator");
  const simulator = singleton(sqlB, other.worker);
  expect(await simulator.tick(3)).toBe(1003);
  await sqlA.close({ timeout: 0 }); // the holder dies: its session, and the lock with it, end
  // The server ends the dead session a moment later; B's next tries take the lock then (the
  // deadline only bounds a failure).
  for (let now = 4, deadline = Date.now() + 15_000; b.runs.length === 0 && Date.now() < deadline; now++) {
    await onB.tick(now);
    if (b.runs.length === 0) await Bun.sleep(25);
  }
  expect(b.runs).toHaveLength(1);
  expect(a.runs).toEqual([1, 2]);
  await onB.close();
  await simulator.close();
  await sqlB.close();
});

test("the change feed: a change published by one instance reaches the others once, not itself", async () => {
  const url = await freshDatabase();
  const [sqlA, sqlB] = [new SQL(url), new SQL(url)];
  const [a, b] = [await pgFeed(sqlA, "a", silentLog), await pgFeed(sqlB, "b", silentLog)];
  const got: { at: string; topic: string | null; key: string }[] = [];
  a.subscribe((topic, key) => got.push({ at: "a", topic, key }));
  b.subscribe((topic, key) => got.push({ at: "b", topic, key }));
  const joined = () =>
    got
      .filter((g) => g.topic === "caught")
      .map((p) => p.key)
      .join(",");
  const until = async (what: string, done: () => boolean) => {
    for (const deadline = Date.now() + 10_000; !done(); await Bun.sleep(10)) if (Date.now() > deadline) throw new Error(`${what}: ${JSON.stringify(got)}`);
  };
  const atB = (key: string) => () => got.some((g) => g.at === "b" && g.topic === "channel" && g.key === key);
  // Each wait is for a notification committed after the one an instance must not deliver to
  // itself; a listener gets notifications in commit order, so by then it had its own.
  a.publish("channel", "orders");
  await until("orders at b", atB("orders"));
  const long = Array.from({ length: 900 }, (_, i) => `gh/01jz${String(i).padStart(22, "0")}`).join(",");
  b.publish("caught", long);
  await until("the long key at a", () => joined().length >= long.length);
  a.publish("channel", "after");
  await until("after at b", atB("after"));
  expect(got.filter((g) => g.topic === "channel")).toEqual([
    { at: "b", topic: "channel", key: "orders" },
    { at: "b", topic: "channel", key: "after" },
  ]);
  // A key over the size of one notification arrives in parts, cut between entries.
  const parts = got.filter((g) => g.topic === "caught");
  expect(parts.every((p) => p.at === "a")).toBe(true);
  expect(parts.length).toBeGreaterThan(1);
  expect(joined() === long).toBe(true);
  await Promise.all([a.close(), b.close()]);
  await Promise.all([sqlA.close(), sqlB.close()]);
});
