/**
 * Contract checks' throughput (issue 31: a check keeps up with 2,000 hooks/s): GitHub's sample
 * events (src/triggers/github-examples.json) checked by contracts/ as caught batches are, on an
 * in-memory SQLite store: the checker with its schemas compiled (the first hook of each type pays
 * for its compile, done once, before the clock starts), the new-type / new-field bookkeeping and
 * the rows kept. Prints hooks checked per second.
 *
 *   bun run bench/contracts.ts [--hooks 20000] [--batch 64]
 *
 * With --lag, the executable instead (bench/contracts-lag.ts): the lag from a hook's 200 to its
 * result kept at a steady rate, then the drain of a flood's backlog.
 *
 *   bun run bench/contracts.ts --lag [--rate 2000] [--seconds 20] [--flood 10] [--pin] [--no-build]
 */
import { parseArgs } from "node:util";
import { lag } from "./contracts-lag";
import { createContractChecker, createContracts } from "../src/contracts";
import { openDatabase } from "../src/db/sqlite/open";
import { createSqliteStorage } from "../src/db/sqlite/storage";
import type { CaughtRow } from "../src/hooks/changes";
import { createIdFactory } from "../src/lib/ids";
import { systemClock } from "../src/lib/clock";
import examples from "../src/triggers/github-examples.json";

const { values: args } = parseArgs({
  options: {
    hooks: { type: "string", default: "20000" },
    batch: { type: "string", default: "64" },
    lag: { type: "boolean", default: false },
    rate: { type: "string", default: "2000" },
    seconds: { type: "string", default: "20" },
    flood: { type: "string", default: "10" },
    pin: { type: "boolean", default: false },
    "no-build": { type: "boolean", default: false },
  },
});
if (args.lag) {
  await lag({ rate: Number(args.rate), seconds: Number(args.seconds), flood: Number(args.flood), pin: args.pin, build: !args["no-build"] });
  process.exit(0);
}
const total = Number(args.hooks);
const batchSize = Number(args.batch);

const db = openDatabase({ path: ":memory:", durability: "normal" });
const storage = createSqliteStorage(db, { path: ":memory:", durability: "normal" });
const newId = createIdFactory(systemClock);
const samples = Object.entries(examples as Record<string, unknown>).map(([type, body]) => ({
  type,
  headers: JSON.stringify({ "x-github-event": type.split(".")[0], "content-type": "application/json" }),
  body: new TextEncoder().encode(JSON.stringify(body)),
}));

/** Caught rows stored as the writer stores them (the check keeps rows only for hooks that exist). */
async function caught(n: number): Promise<CaughtRow[]> {
  const rows: CaughtRow[] = [];
  for (let i = 0; i < n; i++) {
    const s = samples[i % samples.length]!;
    rows.push({
      id: newId(),
      channel: "bench",
      method: "POST",
      query: "",
      headers: s.headers,
      body: s.body,
      ip: "127.0.0.1",
      createdAt: Date.now(),
      eventType: s.type,
    });
  }
  await storage.hooks.insertHooks(rows, () => []);
  return rows;
}

const checker = createContractChecker();
const contracts = createContracts({
  store: storage.contracts,
  checker,
  read: async (ids) => (await storage.hooks.getHooks(ids)).map((h) => ({ ...h, headers: JSON.stringify(h.headers) })),
  clock: systemClock,
  log: console,
});
// Every type compiled once, and every type and field seen once, before the clock starts.
contracts.caught(await caught(samples.length));
await contracts.settled();

const batches: CaughtRow[][] = [];
for (let done = 0; done < total; done += batchSize) batches.push(await caught(Math.min(batchSize, total - done)));
const started = performance.now();
for (const b of batches) contracts.caught(b);
await contracts.settled();
const seconds = (performance.now() - started) / 1000;
const rate = total / seconds;
console.log(
  `${total} hooks (${samples.length} GitHub event types, ${batchSize} a batch) checked and kept in ${seconds.toFixed(2)} s: ${Math.round(rate)} hooks/s (target >= 2000)`,
);
const [load] = (
  await Bun.file("/proc/loadavg")
    .text()
    .catch(() => "? ")
).split(" ");
console.log(`load average (1 min): ${load}`);
