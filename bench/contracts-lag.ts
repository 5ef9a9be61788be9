/**
 * How far contract checks lag behind catching in the executable (bench/contracts.ts --lag; issue
 * 31: a check keeps up with 2,000 hooks/s): dist/mailroom with a GitHub-guarded channel and the
 * checks on (their thread at the lowest priority), sent GitHub's signed 7 KB push
 *
 * 1. at a steady `rate` for `seconds` (this script sends on a fixed schedule, each request on its
 *    own time whatever the answers before it): the lag of each hook from its 200 to its result's
 *    `checked_at` (read from the data file afterwards, read-only: nothing is asked of the server
 *    while it is measured), p50 / p99 / max, and the hooks without a result;
 * 2. then flooded for `flood` seconds (64 requests in flight, as fast as it answers): the backlog
 *    of hooks without a result when the flood ends, and how long until every one has its result.
 *
 * With --pin the server runs on core 0 (taskset) and this script on core 1. Prints the load average.
 */
import { Database } from "bun:sqlite";
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { BIN, buildBinary, fmt, mailroomDir, median, percentile, start } from "./lib";

const SECRET = "bench-github-secret";

/** CPU seconds of each thread of `pid` at idle priority (SCHED_IDLE or nice 19), and of the others. */
function cpuByPriority(pid: number): { idle: number; rest: number; idleThreads: number } {
  const out = { idle: 0, rest: 0, idleThreads: 0 };
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const f = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8").split(") ")[1]!.split(" ");
      const cpu = (Number(f[11]) + Number(f[12])) / 100;
      if (Number(f[38]) === 5 || Number(f[16]) === 19) (out.idle += cpu), out.idleThreads++;
      else out.rest += cpu;
    } catch {
      // a thread that ended meanwhile
    }
  }
  return out;
}

export async function lag(opts: { rate: number; seconds: number; flood: number; pin: boolean; build: boolean }): Promise<void> {
  if (opts.build) buildBinary();
  const body = JSON.stringify(JSON.parse(readFileSync(join(import.meta.dir, "../src/triggers/github-examples.json"), "utf8")).push);
  const headers = {
    "content-type": "application/json",
    "x-github-event": "push",
    "x-github-delivery": "72d3162e-cc78-11e3-81ab-4c9367dc0958",
    "x-hub-signature-256": `sha256=${new Bun.CryptoHasher("sha256", SECRET).update(body).digest("hex")}`,
  };
  const extra = `[contracts]\nenabled = true\n[[guards]]\nname = "gh"\nkind = "github"\nsecret = "${SECRET}"\n[[channels]]\nname = "bench"\nguards = ["gh"]\n`;
  const dir = mailroomDir({ durability: "normal", extra });
  const load = () => readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
  if (opts.pin) Bun.spawnSync(["taskset", "-pc", "1", String(process.pid)], { stdout: "ignore" });
  const server = await start([...(opts.pin ? ["taskset", "-c", "0"] : []), BIN], { cwd: dir });
  const db = new Database(join(dir, "data/mailroom.db"), { readonly: true });
  const checkedAt = db.prepare<{ checked_at: number }, [string]>("SELECT checked_at FROM hook_contracts WHERE hook_id = ?");
  const unchecked = db.prepare<{ n: number }, []>(
    "SELECT count(*) AS n FROM hooks h WHERE h.channel = 'bench' AND NOT EXISTS (SELECT 1 FROM hook_contracts c WHERE c.hook_id = h.id)",
  );
  const url = `${server.url}/?channel=bench`;
  const send = async (): Promise<[string, number] | undefined> => {
    const res = await fetch(url, { method: "POST", headers, body });
    if (res.status !== 200) return (await res.arrayBuffer(), undefined);
    const { id } = (await res.json()) as { id: string };
    return [id, Date.now()];
  };
  try {
    console.log(`load average at the start: ${load()}`);
    // Warm-up: the push schema compiled, its fields seen.
    for (let i = 0; i < 20; i++) await send();

    // 1. A steady rate.
    const answered: [string, number][] = [];
    let failed = 0;
    const inFlight: Promise<void>[] = [];
    const t0 = performance.now();
    const total = Math.round(opts.rate * opts.seconds);
    for (let i = 0; i < total; i++) {
      const due = t0 + (i * 1000) / opts.rate;
      const wait = due - performance.now();
      if (wait > 1) await Bun.sleep(wait);
      inFlight.push(
        send().then(
          (r) => void (r ? answered.push(r) : failed++),
          () => void failed++,
        ),
      );
    }
    await Promise.all(inFlight);
    const sentFor = (performance.now() - t0) / 1000;
    // Every result in (30 s at most), then each hook's lag.
    const until = performance.now() + 30_000;
    while (unchecked.get()!.n > 0 && performance.now() < until) await Bun.sleep(50);
    const lags: number[] = [];
    let missing = 0;
    for (const [id, at] of answered) {
      const r = checkedAt.get(id);
      if (r) lags.push(Math.max(0, r.checked_at - at));
      else missing++;
    }
    console.log(
      `steady: ${answered.length} hooks at ${fmt(answered.length / sentFor, 0)}/s for ${fmt(sentFor, 1)} s (${failed} failed); ` +
        `200 to result kept: p50 ${fmt(median(lags))} ms, p99 ${fmt(percentile(lags, 99))} ms, max ${fmt(Math.max(...lags))} ms; without a result ${missing}; load ${load()}`,
    );

    // 2. A flood, then the drain of its backlog.
    if (opts.flood > 0) {
      let sent = 0;
      const end = performance.now() + opts.flood * 1000;
      await Promise.all(
        Array.from({ length: 64 }, async () => {
          while (performance.now() < end) if (await send().catch(() => undefined)) sent++;
        }),
      );
      const floodEnd = performance.now();
      const backlog = unchecked.get()!.n;
      while (unchecked.get()!.n > 0 && performance.now() - floodEnd < 240_000) await Bun.sleep(50);
      const left = unchecked.get()!.n;
      console.log(
        `flood: ${sent} hooks in ${opts.flood} s (${fmt(sent / opts.flood, 0)}/s); ${backlog} without a result when it ended, ` +
          `all checked ${fmt((performance.now() - floodEnd) / 1000, 2)} s later${left ? ` (NOT: ${left} left after 240 s)` : ""} ` +
          `(${fmt(backlog / ((performance.now() - floodEnd) / 1000), 0)} hooks/s drained); load ${load()}`,
      );
    }
    const cpu = cpuByPriority(server.pid);
    console.log(
      `server CPU: ${fmt(cpu.rest, 1)} s on its other threads, ${fmt(cpu.idle, 1)} s on its ${cpu.idleThreads} threads at idle priority (the checks' and the search index's)`,
    );
    console.log(`server peak RSS: ${readFileSync(`/proc/${server.pid}/status`, "utf8").match(/VmHWM:\s+(\d+)/)?.[1] ?? "?"} kB`);
  } finally {
    db.close();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
