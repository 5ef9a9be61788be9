/**
 * Relay benchmark: an upstream executable (a relay key for channel "bench", a public listener), a
 * laptop executable (`mailroom listen`) and, for the live figure, an app in this process. Both on
 * durability "normal" unless --full. Three figures:
 *
 * 1. live: hooks sent at --rate per second for --live seconds; for each, the time from upstream's
 *    200 to the app receiving it (the laptop forwards it): p50, p99, max.
 * 2. catch-up: the laptop stopped, --backlog hooks of 1 KiB caught upstream, the laptop started:
 *    hooks per second until upstream shows every one handled (acknowledged by the laptop), and
 *    each process's largest RSS meanwhile (sampled every 100 ms).
 * 3. ingest: wrk on upstream's public listener (1 KiB POSTs, --connections, --duration s), with no
 *    listener connected and with the laptop connected and receiving, alternated --rounds times:
 *    the median requests/s of each. Each measured run follows a 2 s warm-up and starts once the
 *    warm-up's hooks are indexed and, with a listener, relayed (--no-settle: at once, so the
 *    laptop still catches up the warm-up's hooks on the same cores while the run is measured).
 *
 * --cpu-prof DIR runs both from source under `bun --cpu-prof-md`, each writing its profile to DIR as it stops.
 *
 *   bun run bench/relay.ts [--rate 500] [--live 10] [--backlog 100000] [--duration 10] [--connections 64] [--rounds 3] [--full] [--no-build] [--no-settle] [--only live|catchup|ingest] [--cpu-prof DIR]
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { AUTH, BIN, buildBinary, fmt, percentile, ROOT, TOKEN } from "./lib";
import { ensureWrk } from "./wrk";

const { values: args } = parseArgs({
  options: {
    rate: { type: "string", default: "500" },
    live: { type: "string", default: "10" },
    backlog: { type: "string", default: "100000" },
    duration: { type: "string", default: "10" },
    connections: { type: "string", default: "64" },
    rounds: { type: "string", default: "3" },
    full: { type: "boolean", default: false },
    "no-build": { type: "boolean", default: false },
    "no-settle": { type: "boolean", default: false },
    only: { type: "string" },
    "cpu-prof": { type: "string" },
  },
});
const RELAY_TOKEN = "bench-relay-token-0123";
const durability = args.full ? "full" : "normal";
const runs = (what: string) => !args.only || args.only === what;

type Proc = { url: string; publicUrl?: string; pid: number; stop(): Promise<void> };

/** The executable, or with --cpu-prof DIR the source under `bun --cpu-prof-md` (a profile per process in DIR, written as it stops). */
const MAILROOM = args["cpu-prof"] ? [process.execPath, "--cpu-prof-md", `--cpu-prof-dir=${args["cpu-prof"]}`, join(ROOT, "src/main.ts")] : [BIN];

/** Spawns argv in `dir` and resolves once it printed where it listens (and its public listener, if any). */
async function start(argv: string[], dir: string): Promise<Proc> {
  const proc = Bun.spawn(argv, { cwd: dir, stdin: "ignore", stdout: "pipe", stderr: "inherit" });
  const reader = proc.stdout.getReader();
  let text = "";
  while (!/listening on (http:\/\/\S+)/.test(text)) {
    const { done, value } = await reader.read();
    if (done) throw new Error(`${argv.join(" ")} exited before listening:\n${text}`);
    text += new TextDecoder().decode(value);
  }
  void (async () => {
    while (!(await reader.read().catch(() => ({ done: true }))).done);
  })();
  return {
    url: /listening on (http:\/\/\S+)/.exec(text)![1]!,
    publicUrl: /public: +(http:\/\/\S+)/.exec(text)?.[1],
    pid: proc.pid,
    async stop() {
      proc.kill("SIGTERM");
      await proc.exited;
    },
  };
}

/** Data folders made here, removed when the script exits (a 100,000-hook backlog leaves hundreds of MiB). */
const folders: string[] = [];
process.on("exit", () => {
  for (const d of folders) rmSync(d, { recursive: true, force: true });
});

function folder(prefix: string, toml: string): string {
  const d = mkdtempSync(join(tmpdir(), prefix));
  folders.push(d);
  writeFileSync(join(d, "mailroom.toml"), toml);
  return d;
}

/** A fresh upstream (its own data). */
function upstream(): Promise<Proc> {
  const d = folder(
    "mailroom-bench-up-",
    `[server]\nport = 0\n[server.public]\nport = 0\n[storage]\npath = "data/up.db"\ndurability = "${durability}"\n` +
      `[[api_keys]]\nlabel = "bench"\ntoken = "${TOKEN}"\n[[api_keys]]\nlabel = "laptop"\ntoken = "${RELAY_TOKEN}"\nscopes = ["relay"]\nchannels = ["bench"]\n`,
  );
  return start([...MAILROOM, "serve", "--quiet", "--config", join(d, "mailroom.toml")], d);
}

/** A laptop on a fresh data folder (unless `d` is given). */
function laptop(up: string, forwardTo?: string, d = newLaptopFolder()): Promise<Proc> {
  const argv = [...MAILROOM, "listen", up, "--channel", "bench", "--token", RELAY_TOKEN, "--quiet", "--config", join(d, "mailroom.toml")];
  if (forwardTo) argv.push("--forward-to", forwardTo);
  return start(argv, d);
}
const newLaptopFolder = () =>
  folder(
    "mailroom-bench-laptop-",
    `[server]\nport = 0\n[storage]\npath = "data/laptop.db"\ndurability = "${durability}"\n[[api_keys]]\nlabel = "bench"\ntoken = "${TOKEN}"\n`,
  );

const handled = async (url: string) => Number(((await (await fetch(`${url}/v1/channels/bench`, { headers: AUTH })).json()) as any).stats?.handled ?? 0);
/**
 * Waits until what a warm-up left behind is done, so the measured round starts from the same state
 * with and without a listener: the search index caught up (a search waits for it), and with a
 * listener (`laptop`, its private URL), every hook relayed (none pending upstream) and indexed on the
 * laptop too. Resolves to the seconds it took.
 */
async function settled(url: string, laptop?: string): Promise<number> {
  const t0 = performance.now();
  if (laptop)
    await until(
      "the warm-up's hooks relayed",
      async () => Number(((await (await fetch(`${url}/v1/channels/bench`, { headers: AUTH })).json()) as any).stats?.pending ?? 0) === 0,
      120_000,
    );
  // A search answers once the index holds every hook caught before it, or after 3 s without.
  for (const where of laptop ? [url, laptop] : [url])
    await until(
      "the warm-up's hooks indexed",
      async () => {
        const t = performance.now();
        await (await fetch(`${where}/v1/hooks?channel=bench&q=settled`, { headers: AUTH })).arrayBuffer();
        return performance.now() - t < 2500;
      },
      120_000,
    );
  return (performance.now() - t0) / 1000;
}
const body1k = `{"event":"order.created","data":"${"x".repeat(1024 - 34)}"}`;
const send = (url: string) => fetch(`${url}/?channel=bench`, { method: "POST", body: body1k, headers: { "content-type": "application/json" } });

async function sendMany(url: string, n: number, inFlight = 64): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next++ < n) await (await send(url)).arrayBuffer();
    }),
  );
}

/** User+system CPU seconds the process has used so far (/proc/PID/stat, clock ticks of 1/100 s). */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function rssMiB(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return m ? Number(m[1]) / 1024 : Number.NaN;
}

async function until(what: string, check: () => Promise<boolean>, ms: number): Promise<void> {
  const deadline = performance.now() + ms;
  while (!(await check())) {
    if (performance.now() > deadline) throw new Error(`${what}: not within ${ms / 1000} s`);
    await Bun.sleep(200);
  }
}

async function live(): Promise<void> {
  const rate = Number(args.rate);
  const seconds = Number(args.live);
  const answered = new Map<string, number>();
  /** When the app first got each hook (it may come before this script has read upstream's answer). */
  const arrived = new Map<string, number>();
  const app = Bun.serve({
    port: 0,
    async fetch(request) {
      await request.arrayBuffer();
      const id = request.headers.get("x-mailroom-hook-id") ?? "";
      if (!arrived.has(id)) arrived.set(id, performance.now());
      return new Response("ok");
    },
  });
  const up = await upstream();
  const lap = await laptop(up.publicUrl!, `http://127.0.0.1:${app.port}/hooks`);
  // Connected once the relay answers another listener 409 (busy).
  const probe = { authorization: `Bearer ${RELAY_TOKEN}`, "x-mailroom-listener": "probe-0000", "x-mailroom-started": "1" };
  await until("connected", async () => (await fetch(`${up.publicUrl}/relay/v1/channels/bench`, { headers: probe })).status === 409, 10_000);
  console.error("live: connected");
  const total = rate * seconds;
  const t0 = performance.now();
  const sent: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const due = t0 + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await Bun.sleep(wait);
    sent.push(
      send(up.publicUrl!).then(async (res) => {
        const now = performance.now();
        answered.set(((await res.json()) as { id: string }).id, now);
      }),
    );
  }
  await Promise.all(sent);
  const sendRate = total / ((performance.now() - t0) / 1000);
  await until("every hook at the app", async () => [...answered.keys()].every((id) => arrived.has(id)), 60_000);
  // The answer's time is when this script read it; the app's, when the request arrived: both on this clock.
  const latencies = [...answered].map(([id, at]) => Math.max(0, arrived.get(id)! - at));
  console.log(
    `live: ${total} hooks at ${fmt(sendRate, 0)}/s sent: upstream's 200 -> the app: p50 ${fmt(percentile(latencies, 50), 1)} ms, p99 ${fmt(percentile(latencies, 99), 1)} ms, max ${fmt(Math.max(...latencies), 1)} ms`,
  );
  await lap.stop();
  await up.stop();
  await app.stop(true);
}

async function catchUp(): Promise<void> {
  const n = Number(args.backlog);
  const up = await upstream();
  const t0 = performance.now();
  await sendMany(up.publicUrl!, n);
  console.log(`catch-up: ${n} hooks of 1 KiB caught upstream with no listener in ${fmt((performance.now() - t0) / 1000, 1)} s`);
  const peaks = { up: rssMiB(up.pid), laptop: 0 };
  console.log(`catch-up: upstream's RSS once the backlog is caught: ${fmt(peaks.up, 0)} MiB`);
  const upCpu0 = cpuSeconds(up.pid);
  const t1 = performance.now();
  const lap = await laptop(up.publicUrl!);
  const sampler = setInterval(() => {
    peaks.up = Math.max(peaks.up, rssMiB(up.pid));
    peaks.laptop = Math.max(peaks.laptop, rssMiB(lap.pid));
  }, 100);
  await until("the backlog handled upstream", async () => (await handled(up.url)) >= n, 600_000);
  const seconds = (performance.now() - t1) / 1000;
  const cpu = { up: cpuSeconds(up.pid) - upCpu0, laptop: cpuSeconds(lap.pid) };
  clearInterval(sampler);
  const stored = await handled(lap.url).catch(() => Number.NaN);
  console.log(
    `catch-up: ${n} hooks drained in ${fmt(seconds, 1)} s = ${fmt(n / seconds, 0)} hooks/s (laptop start included); largest RSS: upstream ${fmt(peaks.up, 0)} MiB, laptop ${fmt(peaks.laptop, 0)} MiB (laptop holds ${stored === 0 ? "its hooks pending: no handler" : stored})`,
  );
  console.log(
    `catch-up: CPU time (user+sys) per hook: upstream ${fmt((1e6 * cpu.up) / n, 0)} us, laptop ${fmt((1e6 * cpu.laptop) / n, 0)} us (laptop start included)`,
  );
  await lap.stop();
  await up.stop();
}

async function wrk(url: string, seconds: number): Promise<number> {
  const proc = Bun.spawn(["wrk", "-t2", `-c${args.connections}`, `-d${seconds}s`, "-s", join(import.meta.dir, "post-1k.lua"), `${url}/?channel=bench`], {
    stdout: "pipe",
    stderr: "pipe",
  });
  const out = await new Response(proc.stdout).text();
  const line = /RESULT (\{.*\})/.exec(out)?.[1];
  if (!line) throw new Error(`wrk printed no result:\n${out}`);
  const r = JSON.parse(line) as { requests: number; duration_us: number };
  return r.requests / (r.duration_us / 1e6);
}

/** Catching rates alone and with a listener, alternated over --rounds rounds (a fresh upstream each time), so drift in the machine's load hits both alike. */
async function ingest(): Promise<void> {
  ensureWrk();
  const seconds = Number(args.duration);
  const rates = { without: [] as number[], with: [] as number[] };
  const waits = { without: [] as number[], with: [] as number[] };
  const settle = !args["no-settle"];
  for (let round = 1; round <= Number(args.rounds); round++) {
    const alone = await upstream();
    await wrk(alone.publicUrl!, 2);
    if (settle) waits.without.push(await settled(alone.url));
    rates.without.push(await wrk(alone.publicUrl!, seconds));
    await alone.stop();
    const up = await upstream();
    const lap = await laptop(up.publicUrl!);
    await wrk(up.publicUrl!, 2);
    if (settle) waits.with.push(await settled(up.url, lap.url));
    rates.with.push(await wrk(up.publicUrl!, seconds));
    await lap.stop();
    await up.stop();
    const waited = settle ? ` (after the warm-up settled in ${fmt(waits.without.at(-1)!, 1)} s and ${fmt(waits.with.at(-1)!, 1)} s)` : "";
    console.log(`ingest round ${round}: no listener ${fmt(rates.without.at(-1)!, 0)} req/s, listener connected ${fmt(rates.with.at(-1)!, 0)} req/s${waited}`);
  }
  const [without, withListener] = [percentile(rates.without, 50), percentile(rates.with, 50)];
  console.log(
    `ingest (wrk, ${args.connections} connections, ${seconds} s, median of ${args.rounds} alternated rounds): no listener ${fmt(without, 0)} req/s; listener connected and receiving ${fmt(withListener, 0)} req/s (${fmt((100 * withListener) / without, 0)}%)`,
  );
}

if (!args["no-build"]) buildBinary();
console.log(`relay benchmark: durability "${durability}", ${navigator.hardwareConcurrency} cores shared by upstream, laptop, app and load`);
if (runs("live")) await live();
if (runs("catchup")) await catchUp();
if (runs("ingest")) await ingest();
