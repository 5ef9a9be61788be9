/**
 * CPU per request of several executables under the same wrk load (1 KiB JSON POSTs, 64
 * connections), pinned (server on core 0, wrk on the others), targets alternating round by
 * round, each on a fresh data file: the process's CPU (utime + stime from /proc) per request
 * answered, split by thread name (the serving thread is the process's first), with wrk's
 * requests/s, p50 and p99 and the peak resident set. CPU per request holds when other work shares
 * the machine, where wall-clock latency does not.
 *
 * A target may add TOML to its config file: LABEL=PATH+FILE (for example the same executable with
 * `[contracts] enabled = false` against itself with them on).
 *
 *   bun run bench/cpu-per-request.ts [--rounds 3] [--duration 8] [--durability normal] LABEL=PATH[+FILE]...
 */
import { readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { fmt, mailroomDir, median, pad, peakRssMiB, start, type Started } from "./lib";
import { ensureWrk } from "./wrk";

const { values: args, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    rounds: { type: "string", default: "3" },
    duration: { type: "string", default: "8" },
    connections: { type: "string", default: "64" },
    durability: { type: "string", default: "normal" },
  },
});
const cores = navigator.hardwareConcurrency;
const other = `1-${cores - 1}`;
Bun.spawnSync(["taskset", "-a", "-p", "-c", other, String(process.pid)], { stdout: "ignore" });
const TICK_US = 1e6 / (Number(Bun.spawnSync(["getconf", "CLK_TCK"]).stdout.toString().trim()) || 100);

/** CPU µs by thread name (the first thread is "main"). */
function threads(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
    } catch {
      continue;
    }
    const name = tid === String(pid) ? "main" : stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")")).replace(/\d+$/, "#");
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    out.set(name, (out.get(name) ?? 0) + (Number(f[11]) + Number(f[12])) * TICK_US);
  }
  return out;
}
/** The whole process's CPU µs (exited threads included). */
function processCpu(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(f[11]) + Number(f[12])) * TICK_US;
}

type Run = { rps: number; p50: number; p99: number; ok: number; cpu: number; main: number; byThread: Map<string, number>; load: number };
async function wrk(url: string, seconds: number) {
  const script = join(import.meta.dir, "post-1k.lua");
  const proc = Bun.spawn(["taskset", "-c", other, "wrk", "-t2", `-c${args.connections}`, `-d${seconds}s`, "-s", script, `${url}/?channel=bench`], {
    stdout: "pipe",
  });
  const out = await new Response(proc.stdout).text();
  await proc.exited;
  const r = JSON.parse(/^RESULT (.*)$/m.exec(out)![1]!);
  return { rps: r.requests / (r.duration_us / 1e6), p50: r.p50_us / 1000, p99: r.p99_us / 1000, ok: r.requests - r.status };
}

ensureWrk();
const targets: { label: string; server: Started; runs: Run[] }[] = [];
for (const spec of positionals) {
  const [label, target] = spec.split("=") as [string, string];
  const [bin, extra] = target.split("+") as [string, string | undefined];
  const dir = mailroomDir({ durability: args.durability as "normal" | "full", extra: extra ? readFileSync(extra, "utf8") : undefined });
  process.on("exit", () => rmSync(dir, { recursive: true, force: true }));
  targets.push({ label, server: await start(["taskset", "-c", "0", bin], { cwd: dir }), runs: [] });
}
try {
  for (const t of targets) await wrk(t.server.url, 2);
  for (let round = 0; round < Number(args.rounds); round++) {
    for (let i = 0; i < targets.length; i++) {
      const t = targets[(i + round) % targets.length]!;
      const [p0, t0] = [processCpu(t.server.pid), threads(t.server.pid)];
      const r = await wrk(t.server.url, Number(args.duration));
      const [p1, t1] = [processCpu(t.server.pid), threads(t.server.pid)];
      const load = Number(readFileSync("/proc/loadavg", "utf8").split(" ")[0]);
      const byThread = new Map<string, number>();
      for (const [k, v] of t1) byThread.set(k, (v - (t0.get(k) ?? 0)) / Math.max(1, r.ok));
      const run = { ...r, cpu: (p1 - p0) / Math.max(1, r.ok), main: byThread.get("main") ?? NaN, byThread, load };
      t.runs.push(run);
      const top = [...byThread]
        .filter(([, v]) => v >= 0.3)
        .sort((a, b) => b[1] - a[1])
        .map(([k, v]) => `${k} ${fmt(v, 1)}`)
        .join(", ");
      console.log(
        `round ${round + 1} ${t.label.padEnd(16)} ${pad(fmt(r.rps, 0), 7)} req/s p50 ${pad(fmt(r.p50), 5)} p99 ${pad(fmt(r.p99), 6)} ms  cpu ${pad(fmt(run.cpu, 1), 5)} µs/req (${top})  load ${load}`,
      );
    }
  }
  console.log(`\nmedians (${args.durability}, ${args.connections} connections, ${args.rounds} rounds of ${args.duration} s):`);
  for (const t of targets) {
    const m = (k: "rps" | "p50" | "p99" | "cpu" | "main") => median(t.runs.map((r) => r[k]));
    console.log(
      `  ${t.label.padEnd(16)} ${pad(fmt(m("rps"), 0), 7)} req/s  p50 ${pad(fmt(m("p50")), 5)}  p99 ${pad(fmt(m("p99")), 6)} ms  cpu ${pad(fmt(m("cpu"), 1), 5)} µs/req, main thread ${pad(fmt(m("main"), 1), 5)}  peak RSS ${fmt(peakRssMiB(t.server.pid), 0)} MB`,
    );
  }
} finally {
  for (const t of targets) await t.server.stop();
}
