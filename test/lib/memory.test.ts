/**
 * The memory keeper (src/lib/memory.ts): a full collection at most once per interval while the
 * resident set is above the soft mark, none below it; and the default collection gives memory
 * back while a load keeps allocating (where the engine's own idle collection never gets to run).
 */
import { expect, test } from "bun:test";
import { join } from "node:path";
import { keepMemoryDown } from "../../src/lib/memory";

test("collects while above the soft mark, never below it; live data above the mark waits until the process grew by a quarter", () => {
  let rss = 100;
  let collections = 0;
  // The timer never fires within this test: each check is driven by hand.
  const keeper = keepMemoryDown({ softMarkBytes: 150, everyMs: 60_000, rss: () => rss, collect: () => void collections++ });
  keeper.tick();
  expect(collections).toBe(0);
  rss = 200;
  keeper.tick();
  expect(collections).toBe(1);
  rss = 120; // the collection gave memory back: below the mark, nothing more
  keeper.tick();
  keeper.tick();
  expect(collections).toBe(1);
  rss = 150; // at the mark, not above it
  keeper.tick();
  expect(collections).toBe(1);
  rss = 400;
  keeper.tick();
  expect(collections).toBe(2);
  // What it left is live data (380, above the mark): no collection each second, but at 475 and more.
  rss = 380;
  keeper.tick();
  rss = 470;
  keeper.tick();
  expect(collections).toBe(2);
  rss = 480;
  keeper.tick();
  expect(collections).toBe(3);
  // Back below the soft mark, the soft mark holds again.
  rss = 100;
  keeper.tick();
  keeper.tick();
  rss = 160;
  keeper.tick();
  expect(collections).toBe(4);
  keeper.stop();
});

test("the timer checks every interval and stops with stop()", async () => {
  let checks = 0;
  const keeper = keepMemoryDown({ softMarkBytes: 150, everyMs: 10, rss: () => (checks++, 0), collect: () => {} });
  await Bun.sleep(200);
  keeper.stop();
  expect(checks).toBeGreaterThan(0);
  const stopped = checks;
  await Bun.sleep(50);
  expect(checks).toBe(stopped);
});

/** The load's soft mark: above what a collection leaves of it (about 95 MiB), below where the engine alone lets it go. */
const MARK_MIB = 120;

/** A process that allocates a fixed amount of short-lived garbage in turns of its event loop, as a server under a flood does, and prints its largest resident set. */
const LOAD = `
import { keepMemoryDown } from ${JSON.stringify(join(import.meta.dir, "../../src/lib/memory.ts"))};
if (process.env.KEEP === "1") keepMemoryDown({ softMarkBytes: ${MARK_MIB} * 2 ** 20, everyMs: 20 });
let peak = 0;
let held = [];
for (let turn = 0; turn < 600; turn++) {
  for (let j = 0; j < 2000; j++) held.push({ body: new Uint8Array(1024).fill(j), text: JSON.stringify({ turn, j, s: "y".repeat(200) }) });
  if (held.length > 20000) held = held.slice(-10000);
  await new Promise((r) => setTimeout(r, 0));
  peak = Math.max(peak, process.memoryUsage.rss());
}
console.log(Math.round(peak / 2 ** 20));
`;

async function peakMiB(mode: "keep" | "none"): Promise<number> {
  const proc = Bun.spawn([process.execPath, "-e", LOAD], { env: { ...process.env, KEEP: mode === "keep" ? "1" : "0" }, stdout: "pipe", stderr: "inherit" });
  const out = await new Response(proc.stdout).text();
  expect(await proc.exited).toBe(0);
  return Number(out.trim());
}

test("under a sustained load, the default collection keeps the resident set well below what the engine alone lets it reach", async () => {
  const alone = await peakMiB("none");
  const kept = await peakMiB("keep");
  // Measured: 216-263 MiB alone, 133-135 kept: within 15 MiB of the mark, where alone went 96 to 143
  // above it. An asynchronous collection (Bun.gc(false)) instead fails this.
  expect(kept - MARK_MIB).toBeLessThan((alone - MARK_MIB) / 2);
}, 60_000);
