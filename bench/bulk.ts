/**
 * Bulk retry benchmark (docs/bulk.md): fills a data file with N failed hooks in one channel,
 * starts dist/mailroom on it, measures catching's rate alone (closed-loop senders), then runs
 * `POST /v1/hooks/bulk {"action": "retry"}` on all N while the same senders go on: the job's
 * hooks/s, and catching's rate during it against its rate alone.
 *
 *   bun run bench/bulk.ts [--hooks 100000] [--senders 8] [--no-build]
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { monotonicFactory } from "ulid";
import { openDatabase } from "../src/db/sqlite/open";
import { AUTH, BIN, buildBinary, catching, fmt, mailroomDir, post, start } from "./lib";

const { values: args } = parseArgs({
  options: {
    hooks: { type: "string", default: "100000" },
    senders: { type: "string", default: "8" },
    "no-build": { type: "boolean", default: false },
  },
});
const n = Number(args.hooks);

function fill(path: string): void {
  const db = openDatabase({ path, durability: "normal" });
  const sql = db.$client;
  sql.run("PRAGMA synchronous = OFF");
  const insertHook = sql.prepare(
    `INSERT INTO hooks (id, channel, status, method, query, headers, body, ip, created_at, finalized_at) VALUES (?, 'bulk', 'failed', 'POST', '', ?, ?, '203.0.113.9', ?, NULL)`,
  );
  const insertEvent = sql.prepare(`INSERT INTO events (hook_id, kind, actor, message, created_at) VALUES (?, 'failed', 'api:ops', 'receiver answered 500', ?)`);
  const nextId = monotonicFactory();
  const at0 = Date.now() - 3_600_000;
  const headers = `{"content-type":"application/json","user-agent":"Shop-Hookshot/1.0"}`;
  for (let done = 0; done < n; ) {
    sql.transaction(() => {
      for (const end = Math.min(n, done + 50_000); done < end; done++) {
        const at = at0 + Math.floor((done * 3_000_000) / n);
        const id = nextId(at).toLowerCase();
        insertHook.run(id, headers, Buffer.from(`{"event":"order.paid","order":${done},"note":"${"x".repeat(900)}"}`), at);
        insertEvent.run(id, at + 1);
      }
    })();
  }
  sql.prepare(`INSERT INTO channels (name, guards, pending, handled, failed, discarded, created_at) VALUES ('bulk', '[]', 0, 0, ?, 0, ?)`).run(n, at0);
  sql.run("PRAGMA wal_checkpoint(TRUNCATE)");
  sql.close();
}

async function main() {
  if (!args["no-build"]) buildBinary();
  const dir = mailroomDir({ durability: "full" });
  process.on("exit", () => rmSync(dir, { recursive: true, force: true }));
  fill(join(dir, "data/mailroom.db"));
  const server = await start([BIN], { cwd: dir });
  try {
    // The start-up sweep indexes the filled hooks for search; the job's snapshot reads the index.
    for (;;) {
      const dry = await post(server.url, "/v1/hooks/bulk", { query: "channel:bulk", action: "retry", dry_run: true });
      if (dry.count === n) break;
      await Bun.sleep(500);
    }
    const senders = Number(args.senders);
    const aloneEnd = performance.now() + 5000;
    const alone = await catching(server.url, senders, () => performance.now() > aloneEnd);
    let running = true;
    const during = catching(server.url, senders, () => !running);
    const t0 = performance.now();
    const job = await post(server.url, "/v1/hooks/bulk", { query: "channel:bulk", action: "retry" });
    const snapshotMs = performance.now() - t0;
    let now = job;
    while (now.state === "running") {
      await Bun.sleep(100);
      now = await (await fetch(`${server.url}/v1/hooks/bulk/${job.id}`, { headers: AUTH })).json();
    }
    const seconds = (performance.now() - t0) / 1000;
    running = false;
    const rate = await during;
    console.log(
      `bulk retry of ${n} hooks: ${now.state}, ${now.done} retried, ${now.skipped} skipped in ${fmt(seconds, 1)} s (snapshot ${fmt(snapshotMs, 0)} ms)`,
    );
    console.log(`  ${fmt(n / seconds, 0)} hooks/s`);
    console.log(
      `catching (${senders} closed-loop senders): alone ${fmt(alone, 0)} hooks/s, during the job ${fmt(rate, 0)} hooks/s (${fmt((100 * rate) / alone, 0)}%)`,
    );
  } finally {
    await server.stop();
  }
}

await main();
