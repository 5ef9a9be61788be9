/**
 * The search index's lag under catching load (docs/search.md): dist/mailroom (durability full) is
 * driven by wrk (JSON POSTs of about 1 KiB with varied words, bench/post-words.lua) while a probe,
 * every 250 ms, catches a hook holding a word of its own and, at once after its 200, searches for
 * it: the search waits until the index thread indexed everything caught before it (3 s at most,
 * then it answers from the index as it is: "not found"), so the time from the 200 to the answer is
 * how far the index lags (the target: found within a second). One run per number of connections
 * (more connections, a higher rate); the load generator shares the machine's cores with the server.
 * Prints the catching rate, the probes' times, and the CPU each of the server's threads used.
 *
 * With `--rate R`, each of the connections waits between its requests so that together they offer
 * about R hooks/s (wrk's `delay`; the rate printed is the one caught).
 *
 *   bun run bench/search-lag.ts [--seconds 20] [--connections 1,4,32] [--rate 5000] [--no-build]
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { AUTH, BIN, buildBinary, fmt, mailroomDir, median, percentile, type Started, start } from "./lib";
import { ensureWrk } from "./wrk";

const { values: args } = parseArgs({
  options: {
    seconds: { type: "string", default: "20" },
    connections: { type: "string", default: "1,4,32" },
    rate: { type: "string" },
    "no-build": { type: "boolean", default: false },
  },
});
ensureWrk();
if (!args["no-build"]) buildBinary();

/** CPU milliseconds of each thread of `pid`, by thread name (threads of one name added up). */
function threadCpu(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const name = readFileSync(`/proc/${pid}/task/${tid}/comm`, "utf8").trim();
      const f = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8").split(") ")[1]!.split(" ");
      const key = tid === String(pid) ? "main" : name;
      out.set(key, (out.get(key) ?? 0) + (Number(f[11]) + Number(f[12])) * 10);
    } catch {
      // a thread that ended meanwhile
    }
  }
  return out;
}

/** One run: the server under wrk with `connections`, probed every 250 ms. */
async function run(connections: number, seconds: number): Promise<void> {
  const server = await start([BIN], { cwd: mailroomDir({ durability: "full" }) });
  try {
    await measure(server, connections, seconds);
  } finally {
  }
}

async function measure(server: Started, connections: number, seconds: number): Promise<void> {
  const before = threadCpu(server.pid);
  const wrk = Bun.spawn(
    [
      "wrk",
      `-t${Math.min(2, connections)}`,
      `-c${connections}`,
      `-d${seconds}s`,
      "-s",
      join(import.meta.dir, "post-words.lua"),
      `${server.url}/?channel=load`,
      ...(args.rate ? ["--", String(Math.round((connections * 1000) / Number(args.rate)))] : []),
    ],
    {
      stdout: "pipe",
      stderr: "pipe",
    },
  );
  const probes: number[] = [];
  let missed = 0;
  let failed = 0;
  const end = performance.now() + seconds * 1000;
  for (let n = 0; performance.now() < end; n++) {
    const word = `lagprobe${n}x${Date.now()}`;
    try {
      const caught = await fetch(`${server.url}/?channel=probe`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: `{"probe":"${word}"}`,
      });
      if (caught.status !== 200) continue;
      const t = performance.now();
      const found = (await (await fetch(`${server.url}/v1/hooks?q=${word}`, { headers: AUTH })).json()) as unknown[];
      probes.push(performance.now() - t);
      if (found.length !== 1) missed++;
    } catch {
      failed++;
    }
    await Bun.sleep(250);
  }
  const [out, err] = await Promise.all([new Response(wrk.stdout).text(), new Response(wrk.stderr).text()]);
  await wrk.exited;
  if (!/^RESULT /m.test(out)) throw new Error(`wrk printed no result:\n${out}${err}`);
  const after = threadCpu(server.pid);
  const r = JSON.parse(/^RESULT (.*)$/m.exec(out)![1]!) as { requests: number; duration_us: number; status: number; p50_us: number; p99_us: number };
  console.log(
    `\n${connections} connections: caught ${fmt(r.requests / (r.duration_us / 1e6), 0)} hooks/s for ${seconds} s (p50 ${fmt(r.p50_us / 1000)} ms, p99 ${fmt(r.p99_us / 1000)} ms, ${r.status} errors)`,
  );
  console.log(
    `  a hook searched right after its 200 (${probes.length} probes): answered after p50 ${fmt(median(probes))} ms, p99 ${fmt(percentile(probes, 99))} ms, max ${fmt(Math.max(...probes))} ms; not found ${missed}, failed ${failed}`,
  );
  const cpu = [...after].map(([k, v]) => [k, v - (before.get(k) ?? 0)] as const).filter(([, v]) => v > 50);
  console.log(`  server CPU by thread over the run: ${cpu.map(([k, v]) => `${k} ${fmt(v / 1000, 1)} s`).join(", ")}`);
}

for (const c of args.connections.split(",")) await run(Number(c), Number(args.seconds));
