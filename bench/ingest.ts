/**
 * Ingest benchmark: dist/mailroom with durability "full", again with "normal", and a raw
 * Bun.serve baseline, driven in turn by the same wrk load (1 KiB JSON POSTs to /?channel=bench,
 * 64 connections) for several rounds. Prints requests/s, p50 and p99 per target, each target's
 * share of the baseline, and the binary's peak RSS. A reference (not a target) runs beside them: a
 * Bun.serve that reads the sender's address, headers and body and stores nothing, which shows what
 * reading a request costs before anything is kept.
 *
 * With --streams N, one more target runs: the durability "normal" server again, with N clients
 * reading GET /v1/stream during its runs (each event read and dropped), and the drop against its
 * runs without them is printed.
 *
 * With --postgres, two more targets run on PostgreSQL (a throwaway cluster the script starts, on the
 * same cores, with PostgreSQL's durable defaults: fsync and synchronous_commit on): one instance, and two instances on one database, each driven by its own wrk with half
 * the connections at the same time (their requests/s added up).
 *
 * With --streams-only, only the durability "normal" server runs, with and without the streams
 * (no baseline, no durability "full"): more rounds in the same time, for that one question.
 *
 * With --pin, the servers run on the first core (one at a time is measured) and wrk, the stream
 * readers and this script on the others (taskset): the readers then stand better for dashboards
 * on other machines, and the load generator takes nothing from the server's core. PostgreSQL's
 * own processes are not pinned.
 *
 * With --guard, one more target runs: the durability "normal" server with a github guard on the
 * channel (every request then carries X-Hub-Signature-256 and X-GitHub-Event, for every target, so
 * the guard's check is the only difference), and its share of the unguarded "normal" server is printed.
 *
 * With --contracts, two more targets run: the durability "normal" server with a github guard on the
 * channel and contract checks off (`[contracts] enabled = false`), and the same with them on
 * (docs/contracts.md); the second's share of the first is printed (the checks run off the catching
 * path: the target is 95% or more). Every request is then what GitHub sends: a real push event
 * (GitHub's example from @octokit/webhooks-examples, as `mailroom trigger github push` sends it, about
 * 7 KB) with X-GitHub-Event: push and its X-Hub-Signature-256, so each hook is checked and valid.
 * --contracts-invalid sends the 1 KiB benchmark body as a push instead (the worst case: every hook
 * invalid, each keeping a row of violations).
 *
 * With --deliver, two more targets run: the durability "normal" server whose "bench" channel has a
 * forward handler to a local sink, and the same with the forward re-signing as Stripe and with
 * delivery chaos on (issue 30); the second's share of the first is printed (the work happens in the
 * runner, off the catching path: it should stay at 95% or more).
 *
 * The --contracts and --deliver targets start afresh for every run (a new data folder, and with
 * --deliver a new sink), warm up for 2 s, are measured, and are killed (SIGKILL) at the end of the
 * run, their sink stopped with them: the deliveries and checks a run leaves behind are abandoned, not
 * run on the pinned core during the next target's run. Their peak RSS is the largest of their runs.
 *
 * With --extra-only, the durability "full" and "normal" servers are left out: only the --contracts
 * and --deliver targets run (more rounds in the same time, for those figures).
 *
 * With --alerts, one more target runs: the durability "normal" server with 50 [[alerts]] rules of
 * every kind (silence, rate, refusals, handler, new_event_type, relay) over every channel, and its
 * share of the "normal" server without rules is printed (issue 33: at least 95%).
 *
 * With --compare PATH, another executable (for example one built from an earlier commit) runs both
 * durabilities beside dist/mailroom, in the same alternating rounds: a before/after in one run
 * (--no-baseline leaves the raw Bun.serve out: more rounds of the two in the same time).
 * With --compare-commit REF, the script builds that commit's executable itself (a temporary git
 * worktree with this tree's node_modules linked, its own build script, removed afterwards) and
 * compares it the same way. Both may be given more than once. Each compared executable's p50 and
 * p99 are also printed against dist/mailroom's round by round (the rounds ran back to back, so the
 * machine's slow drifts touch both alike).
 *
 *   bun run bench/ingest.ts [--rounds 5] [--duration 10] [--connections 64] [--streams 50 [--stream-query fields=summary] [--stream-decode] [--stream-nice] [--streams-only]] [--pin] [--guard] [--alerts] [--contracts [--contracts-invalid]] [--deliver] [--extra-only] [--compare PATH]... [--compare-commit REF]... [--postgres] [--no-build] [--no-reference] [--no-baseline]
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { parseArgs } from "node:util";
import { AUTH, BIN, buildBinary, buildCommit, fmt, mailroomDir, median, pad, peakRssMiB, percentile, start, type Started } from "./lib";
import { ensureWrk } from "./wrk";
import { holdStreams, holdStreamsNiced, type Held } from "./stream-readers";
import { SQL } from "bun";
import { startPostgresCluster } from "../test/helpers/postgres";

/** A new database on the cluster: its URL. */
async function databaseOn(url: string, name: string): Promise<string> {
  const admin = new SQL(url, { max: 1 });
  await admin.unsafe(`CREATE DATABASE ${name}`);
  await admin.close();
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

const { values: args } = parseArgs({
  options: {
    rounds: { type: "string", default: "5" },
    duration: { type: "string", default: "10" },
    connections: { type: "string", default: "64" },
    threads: { type: "string", default: "2" },
    "no-build": { type: "boolean", default: false },
    "no-reference": { type: "boolean", default: false },
    streams: { type: "string", default: "0" },
    "stream-query": { type: "string", default: "" },
    "stream-decode": { type: "boolean", default: false },
    "stream-nice": { type: "boolean", default: false },
    "streams-only": { type: "boolean", default: false },
    pin: { type: "boolean", default: false },
    compare: { type: "string", multiple: true, default: [] },
    "compare-commit": { type: "string", multiple: true, default: [] },
    "no-baseline": { type: "boolean", default: false },
    postgres: { type: "boolean", default: false },
    guard: { type: "boolean", default: false },
    alerts: { type: "boolean", default: false },
    contracts: { type: "boolean", default: false },
    deliver: { type: "boolean", default: false },
    "contracts-invalid": { type: "boolean", default: false },
    "extra-only": { type: "boolean", default: false },
  },
});
const rounds = Number(args.rounds);
const duration = Number(args.duration);
const connections = Number(args.connections);
const streams = Number(args.streams);
const cores = navigator.hardwareConcurrency;
if (args.pin && cores < 2) throw new Error("--pin needs two cores or more");
/** With --pin: the server's core, and the others for everything else (this script included). */
const serverCpus = args.pin ? ["taskset", "-c", "0"] : [];
const otherCpus = args.pin ? ["taskset", "-c", `1-${cores - 1}`] : [];
if (args.pin && Bun.spawnSync(["taskset", "-a", "-p", "-c", `1-${cores - 1}`, String(process.pid)], { stdout: "ignore" }).exitCode !== 0) {
  throw new Error("--pin: taskset could not move this script off the first core");
}
if (args["streams-only"] && !(streams > 0)) throw new Error("--streams-only needs --streams N");
if (args["streams-only"] && args.postgres) throw new Error("--streams-only runs the SQLite server only: leave out --postgres");
if (args["extra-only"] && !(args.contracts || args.deliver)) throw new Error("--extra-only needs --contracts or --deliver");
if (args["extra-only"] && (args.guard || args.alerts || streams > 0 || args.compare.length || args["compare-commit"].length)) {
  throw new Error("--extra-only leaves out the durability=normal server that --guard, --alerts, --streams and --compare compare with");
}

/** The executables compared with dist/mailroom: [label, path], from --compare and --compare-commit. */
const compared: [string, string][] = args.compare.map((path, i) => [args.compare.length > 1 ? `compare${i + 1}` : "compare", path]);

/**
 * The stream readers (bench/stream-readers.ts): in this process, or with --stream-nice in a child
 * process at the lowest CPU priority (with --pin always in a child, on the other cores), which stands better for dashboards on other machines (their
 * reading then takes only what the server and the load generator leave of the two cores).
 */
async function openStreams(url: string, n: number): Promise<Held> {
  const opts = { query: args["stream-query"] ?? "", decode: args["stream-decode"] ?? false };
  if (args.pin) return await holdStreamsNiced(url, n, { ...opts, prefix: [...otherCpus, ...(args["stream-nice"] ? ["nice", "-n", "19"] : [])] });
  return args["stream-nice"] ? await holdStreamsNiced(url, n, opts) : await holdStreams(url, n, opts);
}

type WrkResult = {
  requests: number;
  duration_us: number;
  status: number;
  connect: number;
  read: number;
  write: number;
  timeout: number;
  p50_us: number;
  p99_us: number;
};
type Run = { rps: number; p50: number; p99: number; ok: number; errors: number; cpuUs?: number; idleUs?: number; pending?: string };

/**
 * CPU time (user + system) the threads of a process at idle priority (SCHED_IDLE or nice 19: the
 * contract checks' and the search index's) have used so far, in microseconds, from /proc/PID/task.
 */
function idleCpuUsOf(pid: number): number {
  let us = 0;
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      try {
        const f = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8").split(") ")[1]!.split(" ");
        if (Number(f[38]) === 5 || Number(f[16]) === 19) us += ((Number(f[11]) + Number(f[12])) * 1e6) / 100;
      } catch {
        // a thread that ended meanwhile
      }
    }
  } catch {
    // not a process of this system (taskset's child is the server itself)
  }
  return us;
}

/** CPU time (user + system) a process has used so far, in microseconds, from /proc/PID/stat. */
function cpuUsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // Fields 14 and 15 of stat (utime, stime), counted from the state field (3): indexes 11 and 12.
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / CLOCK_TICKS;
}
const CLOCK_TICKS = Number(Bun.spawnSync(["getconf", "CLK_TCK"]).stdout.toString().trim()) || 100;

/**
 * A 95% interval for the median of xs, by bootstrap (the median of 2000 resamplings, their 2.5th
 * and 97.5th percentiles): how far the machine's noise leaves the figure uncertain.
 */
function medianInterval(xs: readonly number[]): [number, number] {
  if (xs.length < 2) return [NaN, NaN];
  let seed = 1;
  const random = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296;
  const medians = Array.from({ length: 2000 }, () => median(xs.map(() => xs[Math.floor(random() * xs.length)]!)));
  return [percentile(medians, 2.5), percentile(medians, 97.5)];
}

/** One wrk per URL at the same time, each with its share of the connections; their results added up. */
async function wrkAll(urls: string[], seconds: number): Promise<Run> {
  const runs = await Promise.all(urls.map((u) => wrk(u, seconds, Math.max(1, Math.round(connections / urls.length)))));
  if (runs.length === 1) return runs[0]!;
  return {
    rps: runs.reduce((n, r) => n + r.rps, 0),
    ok: runs.reduce((n, r) => n + r.ok, 0),
    errors: runs.reduce((n, r) => n + r.errors, 0),
    p50: Math.max(...runs.map((r) => r.p50)),
    p99: Math.max(...runs.map((r) => r.p99)),
  };
}

/**
 * With --guard: post-1k.lua with the body's GitHub signature (the secret is GUARD_SECRET), else
 * post-1k.lua itself. With --contracts (and not --contracts-invalid) the body is GitHub's push
 * example, signed the same way.
 */
const GUARD_SECRET = "bench-github-secret";
function wrkScript(): string {
  const plain = join(import.meta.dir, "post-1k.lua");
  if (!args.guard && !args.contracts) return plain;
  const [head, tail] = ['{"event":"order.created","id":"evt_0123456789","data":"', '"}'];
  const realPush = args.contracts && !args["contracts-invalid"];
  // GitHub's push example from @octokit/webhooks-examples, completed to its schema (scripts/github-examples.ts).
  const body = realPush
    ? JSON.stringify(JSON.parse(readFileSync(join(import.meta.dir, "../src/triggers/github-examples.json"), "utf8")).push)
    : head + "x".repeat(1024 - head.length - tail.length) + tail;
  if (body.includes("]==]")) throw new Error("the push example cannot be a Lua long string");
  const sig = new Bun.CryptoHasher("sha256", GUARD_SECRET).update(body).digest("hex");
  const path = join(mkdtempSync(join(tmpdir(), "mailroom-bench-lua-")), "post-1k-github.lua");
  const extra =
    `wrk.headers["X-Hub-Signature-256"] = "sha256=${sig}"\nwrk.headers["X-GitHub-Event"] = "push"\n` +
    (realPush ? `wrk.headers["X-GitHub-Delivery"] = "72d3162e-cc78-11e3-81ab-4c9367dc0958"\nwrk.body = [==[${body}]==]\n` : "");
  writeFileSync(path, readFileSync(plain, "utf8").replace("\nfunction done", `${extra}\nfunction done`));
  process.on("exit", () => rmSync(dirname(path), { recursive: true, force: true }));
  return path;
}
const script = wrkScript();

async function wrk(url: string, seconds: number, conns = connections): Promise<Run> {
  const proc = Bun.spawn([...otherCpus, "wrk", `-t${args.threads}`, `-c${conns}`, `-d${seconds}s`, "-s", script, `${url}/?channel=bench`], {
    stdout: "pipe",
    stderr: "pipe",
  });
  const out = await new Response(proc.stdout).text();
  await proc.exited;
  const line = /^RESULT (.*)$/m.exec(out);
  if (!line) throw new Error(`wrk printed no result:\n${out}${await new Response(proc.stderr).text()}`);
  const r = JSON.parse(line[1]!) as WrkResult;
  const errors = r.status + r.connect + r.read + r.write + r.timeout;
  return { rps: r.requests / (r.duration_us / 1e6), p50: r.p50_us / 1000, p99: r.p99_us / 1000, ok: r.requests - r.status, errors };
}

async function main() {
  ensureWrk();
  if (!args["no-build"]) {
    console.log("building dist/mailroom ...");
    buildBinary();
  }
  for (const ref of args["compare-commit"]) {
    console.log(`building ${ref} in a temporary worktree ...`);
    const built = buildCommit(ref);
    process.on("exit", () => built.dispose());
    compared.push([built.commit, built.bin]);
  }
  /**
   * A target with `fresh` starts afresh for each run (fresh() gives its server and what to stop with
   * it); its `server` is the one of the run under way, and `rss` the largest peak of its runs.
   */
  type Target = { name: string; server: Started; more?: Started[]; runs: Run[]; streams?: boolean; fresh?: () => Promise<Fresh>; rss?: number };
  type Fresh = { server: Started; dispose(): Promise<void> };
  const targets: Target[] = [];
  /** A server for a fresh target: killed (SIGKILL, nothing drained) and its folder removed by dispose(). */
  const freshServer = async (extra: string, after?: () => Promise<void>): Promise<Fresh> => {
    const dir = mailroomDir({ durability: "normal", extra });
    const server = await start([...serverCpus, BIN], { cwd: dir });
    return {
      server,
      async dispose() {
        server.proc.kill("SIGKILL");
        await server.proc.exited;
        await after?.();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  };
  /** Where a fresh target's server is before its first run (never reached). */
  const NOT_STARTED: Started = { url: "", pid: 0, proc: undefined as never, startMs: 0, stop: async () => {} };
  const streamsOnly = args["streams-only"] && streams > 0;
  if (!streamsOnly && !args["no-baseline"]) {
    const baseline = await start([...serverCpus, process.execPath, join(import.meta.dir, "baseline.ts")]);
    targets.push({ name: "baseline (raw Bun.serve)", server: baseline, runs: [] });
  }
  if (!args["no-reference"] && !streamsOnly) {
    const reference = await start([...serverCpus, process.execPath, join(import.meta.dir, "baseline.ts"), "--read"]);
    targets.push({ name: "reference: reads, stores 0", server: reference, runs: [] });
  }
  for (const durability of args["extra-only"] ? [] : streamsOnly ? (["normal"] as const) : (["full", "normal"] as const)) {
    for (const [label, bin] of [["mailroom", BIN], ...compared] as [string, string][]) {
      const dir = mailroomDir({ durability });
      process.on("exit", () => rmSync(dir, { recursive: true, force: true }));
      targets.push({ name: `${label} durability=${durability}`, server: await start([...serverCpus, bin], { cwd: dir }), runs: [] });
    }
  }
  if (args.guard) {
    const extra = `[[guards]]\nname = "gh"\nkind = "github"\nsecret = "${GUARD_SECRET}"\n[[channels]]\nname = "bench"\nguards = ["gh"]\n`;
    const dir = mailroomDir({ durability: "normal", extra });
    process.on("exit", () => rmSync(dir, { recursive: true, force: true }));
    targets.push({ name: "mailroom normal + github", server: await start([...serverCpus, BIN], { cwd: dir }), runs: [] });
  }
  if (args.alerts) {
    const kinds = [
      `kind = "silence"\nfor = "30m"\nschedule = "mon-fri 08:00-20:00 Europe/Berlin"`,
      `kind = "rate"\nthreshold = 1000000\nwindow = "1m"`,
      `kind = "refusals"\nthreshold = 10\nwindow = "5m"`,
      `kind = "handler"\nthreshold = 5`,
      `kind = "new_event_type"`,
      `kind = "relay"\nfor = "5m"`,
    ];
    const extra = Array.from({ length: 50 }, (_, i) => `[[alerts]]\nname = "rule-${i}"\nchannels = ["*"]\n${kinds[i % kinds.length]}\n`).join("");
    const dir = mailroomDir({ durability: "normal", extra });
    process.on("exit", () => rmSync(dir, { recursive: true, force: true }));
    targets.push({ name: "mailroom normal + 50 alert rules", server: await start([...serverCpus, BIN], { cwd: dir }), runs: [] });
  }
  if (args.contracts) {
    // The same GitHub-guarded channel with contract checks off and on: the checks are the only difference.
    for (const [name, enabled] of [
      ["mailroom normal + github, contracts off", false],
      ["mailroom normal + github, contracts on", true],
    ] as const) {
      const extra = `[contracts]\nenabled = ${enabled}\n[[guards]]\nname = "gh"\nkind = "github"\nsecret = "${GUARD_SECRET}"\n[[channels]]\nname = "bench"\nguards = ["gh"]\n`;
      targets.push({ name, server: NOT_STARTED, runs: [], fresh: () => freshServer(extra) });
    }
  }
  if (args.deliver) {
    // Each run's own app for the forwards to deliver to (answers at once, in this process, off the
    // server's core), stopped with the run's server.
    const forward = (more: string) => async () => {
      const sink = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("ok") });
      const extra =
        `[[handlers]]\nname = "app"\nkind = "forward"\nurl = "http://127.0.0.1:${sink.port}/hooks"\nconcurrency = 16\n${more}` +
        `[[channels]]\nname = "bench"\nhandlers = ["app"]\n`;
      return await freshServer(extra, async () => void (await sink.stop(true)));
    };
    const resigned = `resign = { kind = "stripe", secret = "whsec_bench" }\nchaos = { duplicate = 0.2, delay = "0-20ms", seed = 42 }\n`;
    targets.push({ name: "mailroom normal + forward", server: NOT_STARTED, runs: [], fresh: forward("") });
    targets.push({ name: "mailroom normal + forward re-signed, chaos", server: NOT_STARTED, runs: [], fresh: forward(resigned) });
  }
  let cluster: Awaited<ReturnType<typeof startPostgresCluster>> | undefined;
  if (args.postgres) {
    // PostgreSQL's defaults: fsync, synchronous_commit and full_page_writes on, as durable as durability=full.
    cluster = await startPostgresCluster({ durable: true });
    const one = mailroomDir({ durability: "full", postgres: await databaseOn(cluster.url, "bench_one") });
    targets.push({ name: "postgres 1 instance", server: await start([...serverCpus, BIN], { cwd: one }), runs: [] });
    const shared = await databaseOn(cluster.url, "bench_two");
    const [a, b] = [mailroomDir({ durability: "full", postgres: shared }), mailroomDir({ durability: "full", postgres: shared })];
    const first = await start([...serverCpus, BIN], { cwd: a });
    targets.push({ name: "postgres 2 instances", server: first, more: [await start([...serverCpus, BIN], { cwd: b })], runs: [] });
  }
  // The streams target is the "normal" server itself with the streams open during its runs: the
  // same process, data file and warm-up, so the difference is the streams' alone.
  const read = new Map<string, { bytes: number; dropped: number }>();
  if (streams > 0) {
    for (const label of ["mailroom", ...compared.map(([label]) => label)]) {
      const normal = targets.find((t) => t.name === `${label} durability=normal`)!;
      targets.push({ name: `${label} normal + ${streams} streams`, server: normal.server, runs: [], streams: true });
      read.set(label, { bytes: 0, dropped: 0 });
    }
  }
  try {
    console.log(`wrk: ${connections} connections, ${args.threads} threads, ${duration}s per run, ${rounds} rounds, targets alternating`);
    const urlsOf = (t: (typeof targets)[number]) => [t.server.url, ...(t.more ?? []).map((m) => m.url)];
    for (const t of targets) if (!t.streams && !t.fresh) await wrkAll(urlsOf(t), 2); // warm-up, not counted
    for (let round = 0; round < rounds; round++) {
      // Rotate the order so no target always runs right after another; a server run with and
      // without streams swaps its two runs every other round (the data file grows, and a later
      // run is a little slower).
      const order = targets.map((_, i) => targets[(i + round) % targets.length]!);
      if (round % 2 === 1) {
        for (const t of targets.filter((t) => t.streams)) {
          const [a, b] = [order.indexOf(t), order.findIndex((o) => o.server === t.server && !o.streams)];
          [order[a], order[b]] = [order[b]!, order[a]!];
        }
      }
      for (const t of order) {
        const fresh = t.fresh ? await t.fresh() : undefined;
        if (fresh) {
          t.server = fresh.server;
          await wrkAll(urlsOf(t), 2); // warm-up, not counted
        }
        const pids = [t.server.pid, ...(t.more ?? []).map((m) => m.pid)];
        const held = t.streams ? await openStreams(t.server.url, streams) : undefined;
        const cpu0 = pids.reduce((n, p) => n + cpuUsOf(p), 0);
        const idle0 = pids.reduce((n, p) => n + idleCpuUsOf(p), 0);
        const r = await wrkAll(urlsOf(t), duration);
        if (held) {
          const tally = read.get(t.name.split(" ")[0]!)!;
          const { bytes, open } = await held.stop();
          tally.bytes += bytes;
          tally.dropped += streams - open;
        }
        // The servers' CPU per request answered 2xx: what a request costs them, whatever else runs beside.
        r.cpuUs = (pids.reduce((n, p) => n + cpuUsOf(p), 0) - cpu0) / Math.max(1, r.ok);
        // Of which its threads at idle priority (the contract checks', the search index's): time catching left over.
        r.idleUs = (pids.reduce((n, p) => n + idleCpuUsOf(p), 0) - idle0) / Math.max(1, r.ok);
        if (fresh) {
          // The hooks not yet handled (with a forward: not yet delivered), read before it is killed.
          const ch = (await (await fetch(`${t.server.url}/v1/channels/bench`, { headers: AUTH })).json()) as { stats: { pending: string } };
          r.pending = ch.stats.pending;
          t.rss = Math.max(t.rss ?? 0, peakRssMiB(t.server.pid));
          await fresh.dispose();
          t.server = NOT_STARTED;
        }
        t.runs.push(r);
        console.log(
          `  round ${round + 1}  ${t.name.padEnd(26)} ${pad(fmt(r.rps, 0), 7)} req/s  p50 ${pad(fmt(r.p50), 6)} ms  p99 ${pad(fmt(r.p99), 6)} ms  cpu ${pad(fmt(r.cpuUs ?? NaN, 1), 5)} µs/req (idle prio ${fmt(r.idleUs ?? NaN, 1)})${r.errors ? `  errors ${r.errors}` : ""}${r.pending === undefined ? "" : `  ${r.pending} pending when killed`}`,
        );
      }
    }
    const baseline = targets.find((t) => t.name.startsWith("baseline"));
    const base = baseline ? median(baseline.runs.map((r) => r.rps)) : NaN;
    console.log(
      `\nmedians over ${rounds} rounds (${args.contracts && !args["contracts-invalid"] ? "GitHub push" : "1 KiB JSON"} POST /?channel=bench, ${connections} connections):`,
    );
    console.log(
      `  ${"target".padEnd(26)} ${pad("req/s", 8)} ${pad("p50 ms", 8)} ${pad("p99 ms", 8)} ${pad("share", 7)} ${pad("peak RSS", 10)} ${pad("cpu µs/req", 11)}`,
    );
    for (const t of targets) {
      const rps = median(t.runs.map((r) => r.rps));
      const rss = t.fresh ? (t.rss ?? NaN) : peakRssMiB(t.server.pid);
      console.log(
        `  ${t.name.padEnd(26)} ${pad(fmt(rps, 0), 8)} ${pad(fmt(median(t.runs.map((r) => r.p50))), 8)} ${pad(fmt(median(t.runs.map((r) => r.p99))), 8)} ` +
          `${pad(Number.isNaN(base) ? "-" : fmt((100 * rps) / base, 1) + "%", 7)} ${pad(fmt(rss, 1) + " MB", 10)} ${pad(fmt(median(t.runs.map((r) => r.cpuUs ?? NaN)), 1), 11)}`,
      );
    }
    // Each compared executable against dist/mailroom, round by round: their runs were back to back.
    for (const [label] of compared) {
      for (const durability of streamsOnly ? ["normal"] : ["full", "normal"]) {
        const of = (name: string) => targets.find((t) => t.name === `${name} durability=${durability}`)!.runs;
        const [mine, theirs] = [of("mailroom"), of(label)];
        const ratio = (key: "rps" | "p50" | "p99") => mine.map((r, i) => r[key] / theirs[i]![key]);
        const line = (key: "rps" | "p50" | "p99") =>
          `${key} ${fmt(median(ratio(key)), 2)}x (${ratio(key)
            .map((x) => fmt(x, 2))
            .join(", ")})`;
        console.log(`  mailroom against ${label}, durability=${durability}, round by round: ${line("rps")}; ${line("p50")}; ${line("p99")}`);
      }
    }
    if (args.postgres) {
      const of = (name: string) => median(targets.find((t) => t.name === name)!.runs.map((r) => r.rps));
      const full = of("mailroom durability=full");
      for (const name of ["postgres 1 instance", "postgres 2 instances"]) {
        console.log(
          `  ${name}: ${fmt((100 * of(name)) / full, 1)}% of the same executable on SQLite with durability=full (${fmt(of(name), 0)} against ${fmt(full, 0)} req/s)`,
        );
      }
    }
    if (args.guard) {
      const of = (name: string) => targets.find((t) => t.name === name)!.runs;
      const [plain, guarded] = [of("mailroom durability=normal"), of("mailroom normal + github")];
      const [rps0, rps1] = [median(plain.map((r) => r.rps)), median(guarded.map((r) => r.rps))];
      const paired = plain.map((r, i) => (100 * guarded[i]!.rps) / r.rps);
      console.log(
        `  github guard: ${fmt(rps1, 0)} req/s against ${fmt(rps0, 0)} without, ${fmt((100 * rps1) / rps0, 1)}% (round by round: ${paired.map((p) => fmt(p, 1)).join(", ")}%)`,
      );
    }
    if (args.alerts) {
      const of = (name: string) => targets.find((t) => t.name === name)!.runs;
      const [plain, ruled] = [of("mailroom durability=normal"), of("mailroom normal + 50 alert rules")];
      const [rps0, rps1] = [median(plain.map((r) => r.rps)), median(ruled.map((r) => r.rps))];
      const paired = plain.map((r, i) => (100 * ruled[i]!.rps) / r.rps);
      console.log(
        `  50 alert rules: ${fmt(rps1, 0)} req/s against ${fmt(rps0, 0)} without, ${fmt((100 * rps1) / rps0, 1)}% (round by round: ${paired.map((p) => fmt(p, 1)).join(", ")}%)`,
      );
    }
    if (args.contracts) {
      const of = (name: string) => targets.find((t) => t.name === name)!.runs;
      const [off, on] = [of("mailroom normal + github, contracts off"), of("mailroom normal + github, contracts on")];
      const [rps0, rps1] = [median(off.map((r) => r.rps)), median(on.map((r) => r.rps))];
      const paired = off.map((r, i) => (100 * on[i]!.rps) / r.rps);
      console.log(
        `  contract checks: ${fmt(rps1, 0)} req/s against ${fmt(rps0, 0)} without, ${fmt((100 * rps1) / rps0, 1)}% (target >= 95%; round by round: ${paired.map((p) => fmt(p, 1)).join(", ")}%)`,
      );
      // What holds under load: the CPU a request costs the threads that are not at idle priority.
      const busy = (r: Run) => (r.cpuUs ?? NaN) - (r.idleUs ?? 0);
      const [cpu0, cpu1] = [median(off.map(busy)), median(on.map(busy))];
      console.log(
        `  CPU a request costs the threads not at idle priority: ${fmt(cpu1, 1)} µs with the checks, ${fmt(cpu0, 1)} without: ${fmt((100 * cpu0) / cpu1, 1)}% as many requests a core (round by round: ${off.map((r, i) => fmt((100 * busy(r)) / busy(on[i]!), 1)).join(", ")}%)`,
      );
    }
    if (args.deliver) {
      const of = (name: string) => targets.find((t) => t.name === name)!.runs;
      const [plain, resigned] = [of("mailroom normal + forward"), of("mailroom normal + forward re-signed, chaos")];
      const [rps0, rps1] = [median(plain.map((r) => r.rps)), median(resigned.map((r) => r.rps))];
      const paired = plain.map((r, i) => (100 * resigned[i]!.rps) / r.rps);
      console.log(
        `  forward re-signed with chaos: ${fmt(rps1, 0)} req/s caught against ${fmt(rps0, 0)} with a plain forward, ${fmt((100 * rps1) / rps0, 1)}% (round by round: ${paired.map((p) => fmt(p, 1)).join(", ")}%)`,
      );
    }
    for (const [label, tally] of read) {
      const of = (name: string) => targets.find((t) => t.name === name)!.runs;
      const [without, withStreams] = [of(`${label} durability=normal`), of(`${label} normal + ${streams} streams`)];
      const [rps0, rps1] = [median(without.map((r) => r.rps)), median(withStreams.map((r) => r.rps))];
      const [cpu0, cpu1] = [median(without.map((r) => r.cpuUs ?? NaN)), median(withStreams.map((r) => r.cpuUs ?? NaN))];
      console.log(
        `  ${label} with ${streams} open streams: ${fmt(rps1, 0)} req/s against ${fmt(rps0, 0)} without, a change of ${fmt((100 * (rps1 - rps0)) / rps0, 1)}% (the streams read ${(tally.bytes / 1e6).toFixed(0)} MB; ${tally.dropped} dropped by the server as too slow)`,
      );
      console.log(
        `  ${label}'s CPU per request: ${fmt(cpu1, 1)} µs with the streams against ${fmt(cpu0, 1)} µs without, a change of ${fmt((100 * (cpu1 - cpu0)) / cpu0, 1)}%`,
      );
      // Round by round (the two ran one after the other), which the machine's slow drifts affect less.
      const paired = without.map((r, i) => (100 * (withStreams[i]!.rps - r.rps)) / r.rps);
      const [lo, hi] = medianInterval(paired);
      console.log(
        `  ${label} change within each round: median ${fmt(median(paired), 1)}%, 95% interval ${fmt(lo, 1)}% to ${fmt(hi, 1)}% (${paired.map((p) => fmt(p, 1)).join(", ")})`,
      );
    }
    // Every 2xx wrk counted must be stored (requests still in flight when wrk stops may add a few more).
    for (const t of targets.filter((t) => !/^(baseline|reference)/.test(t.name) && !t.streams && !t.fresh)) {
      const ch = (await (await fetch(`${t.server.url}/v1/channels/bench`, { headers: AUTH })).json()) as { stats: { pending: string } };
      const answered = targets.filter((o) => o.server === t.server).reduce((n, o) => n + o.runs.reduce((m, r) => m + r.ok, 0), 0);
      console.log(`  ${t.name}: ${ch.stats.pending} hooks stored, ${answered} 2xx counted by wrk in the measured runs (plus warm-up)`);
    }
  } finally {
    for (const t of targets) if (!t.streams && t.server !== NOT_STARTED) for (const s of [t.server, ...(t.more ?? [])]) await s.stop();
    await cluster?.stop();
  }
}

await main();
