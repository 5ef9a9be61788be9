/**
 * What live streams that never read cost the server. Starts Mailroom (dist/mailroom when present,
 * or `bun src/main.ts serve` with --source) with a temp config, measures its idle RSS, opens N
 * GET /v1/stream connections over raw TCP that read the response's first bytes and then nothing
 * (the socket is paused: the kernel's buffers fill, then the server's), catches hooks large enough
 * to push each of them past the unread limit, and checks that the server's RSS is back within
 * 50 MB of idle within 10 s of the last hook. One stream that reads all along is the control: it
 * must get every hook and stay open. Then the paused sockets are read again, to count those the
 * server closed.
 *
 *   bun run bench/stream-memory.ts [--streams 500] [--hooks 48] [--body-kib 512] [--source | --binary PATH]
 *
 * The streams are spread over API keys so that none passes the limit of streams per credential.
 */
import net from "node:net";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { AUTH, BIN, fmt, mailroomDir, median, peakRssMiB, ROOT, start } from "./lib";
import { MAX_STREAMS, MAX_STREAMS_PER_CREDENTIAL } from "../src/live/limits";
import { MAX_UNREAD_BYTES } from "../src/live/stream";

const { values: args } = parseArgs({
  options: {
    streams: { type: "string", default: "500" },
    hooks: { type: "string", default: "48" },
    "body-kib": { type: "string", default: "512" },
    source: { type: "boolean", default: false },
    binary: { type: "string" },
    "within-mb": { type: "string", default: "50" },
    "within-s": { type: "string", default: "10" },
  },
});
const N = Number(args.streams);
const HOOKS = Number(args.hooks);
const BODY = Number(args["body-kib"]) * 1024;
const WITHIN_MB = Number(args["within-mb"]);
const WITHIN_MS = Number(args["within-s"]) * 1000;
if (N > MAX_STREAMS) throw new Error(`--streams ${N}: the server takes at most ${MAX_STREAMS} streams in all`);

/** The newest modification time of the files under a folder. */
function newestUnder(dir: string): number {
  let newest = 0;
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile()) newest = Math.max(newest, statSync(join(e.parentPath, e.name)).mtimeMs);
  }
  return newest;
}
const signed = (d: number) => `${d >= 0 ? "+" : ""}${fmt(d, 1)}`;
const rssMiB = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) / 1024;
const token = (k: number) => `bench-stream-token-${String(k).padStart(4, "0")}-0123456789`;
const perKey = MAX_STREAMS_PER_CREDENTIAL;
const keys = Math.ceil(N / perKey);
const extra = Array.from({ length: keys }, (_, k) => `[[api_keys]]\nlabel = "stream-${k}"\ntoken = "${token(k)}"\n`).join("");
const dir = mailroomDir({ durability: "normal", extra });

const binary = args.binary ?? BIN;
const argv = args.source || !existsSync(binary) ? [process.execPath, join(ROOT, "src/main.ts"), "serve"] : [binary, "serve"];
if (argv[0] === binary && newestUnder(join(ROOT, "src")) > statSync(binary).mtimeMs) {
  console.log(`note: ${binary} is older than the newest file in src/ (npm run build, or --source)`);
}
const server = await start(argv, { cwd: dir });
const { port } = new URL(server.url);
console.log(`server: ${argv.join(" ")} (pid ${server.pid})`);

try {
  const body = new Uint8Array(BODY).map((_, i) => (i * 7919) % 251);
  const catchOne = async (channel = "bench") => {
    const res = await fetch(`${server.url}/?channel=${channel}`, { method: "POST", body });
    if (res.status !== 200) throw new Error(`catching: HTTP ${res.status}`);
    return ((await res.json()) as { id: string }).id;
  };

  // The control: a client that reads every event, open from the start (with a key of its own).
  const control = await fetch(`${server.url}/v1/stream`, { headers: AUTH });
  if (control.status !== 200) throw new Error(`control stream: HTTP ${control.status}`);
  const controlText = { seen: "", ended: false };
  void (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of control.body!) controlText.seen = (controlText.seen + decoder.decode(chunk, { stream: true })).slice(-4096);
    controlText.ended = true;
  })().catch(() => (controlText.ended = true));
  // Warm up with as many hooks as the measurement catches (the database's cache, the allocator's
  // arenas): what is left after is what the streams hold.
  const started = rssMiB(server.pid);
  for (let i = 0; i < HOOKS; i++) await catchOne("warm-up");
  await Bun.sleep(1500);
  const idle = rssMiB(server.pid);
  console.log(`RSS: ${fmt(started, 1)} MiB started, ${fmt(idle, 1)} MiB idle after catching ${HOOKS} hooks with the control stream open`);

  // N readers that never read past the response's first bytes.
  const sockets: net.Socket[] = [];
  await Promise.all(
    Array.from(
      { length: N },
      (_, i) =>
        new Promise<void>((resolve, reject) => {
          const s = net.connect({ host: "127.0.0.1", port: Number(port) }, () => {
            s.write(`GET /v1/stream HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token(Math.floor(i / perKey))}\r\n\r\n`);
          });
          s.once("data", (first: Buffer) => {
            s.pause();
            const head = first.toString("latin1", 0, 12);
            if (head !== "HTTP/1.1 200") reject(new Error(`stream ${i}: ${first.toString("latin1", 0, 200)}`));
            else resolve();
          });
          s.once("error", reject);
          sockets.push(s);
        }),
    ),
  );
  const opened = rssMiB(server.pid);
  console.log(`${N} paused readers open: RSS ${fmt(opened, 1)} MiB`);

  // Each hook is an event of about 4/3 of its body (base64) on every stream.
  const ids: string[] = [];
  const t0 = performance.now();
  for (let i = 0; i < HOOKS; i++) ids.push(await catchOne());
  const caughtAt = performance.now();
  const perStreamMb = (HOOKS * BODY * 4) / 3 / 1048576;
  console.log(
    `caught ${HOOKS} hooks of ${BODY / 1024} KiB in ${fmt((caughtAt - t0) / 1000, 1)} s: about ${fmt(perStreamMb, 0)} MB for each stream (unread limit ${MAX_UNREAD_BYTES / 1048576} MB); RSS ${fmt(rssMiB(server.pid), 1)} MiB`,
  );

  // Watched for the whole WITHIN_S: when it first came back, and where it is at the end.
  let backAfter: number | undefined;
  let backAt = 0;
  let last = 0;
  while (performance.now() - caughtAt < WITHIN_MS) {
    last = rssMiB(server.pid);
    if (backAfter === undefined && last <= idle + WITHIN_MB) (backAfter = performance.now() - caughtAt), (backAt = last);
    await Bun.sleep(100);
  }
  const peak = peakRssMiB(server.pid);

  // The control got every hook (its channel's event counts them) and is still open.
  const allThere = () => controlText.seen.includes(`"pending":"${ids.length}"`);
  const controlDeadline = performance.now() + 10_000;
  while (!allThere() && !controlText.ended && performance.now() < controlDeadline) await Bun.sleep(50);
  const controlOk = allThere() && !controlText.ended;

  // Read the paused sockets again: a stream the server dropped ends once what was held for it is
  // read (at once when the connection was reset); one still open would not end.
  let closed = 0;
  const after: number[] = [];
  const closes = sockets.map(
    (s, i) =>
      new Promise<void>((resolve) => {
        after[i] = 0;
        if (s.destroyed) return (closed++, resolve());
        s.on("data", (b: Buffer) => (after[i]! += b.byteLength));
        s.on("error", () => {});
        s.once("close", () => (closed++, resolve()));
        s.resume();
      }),
  );
  await Promise.race([Promise.all(closes), Bun.sleep(5000)]);
  for (const s of sockets) s.destroy();

  console.log(`peak RSS: ${fmt(peak, 1)} MiB`);
  console.log(
    backAfter === undefined
      ? `RSS NOT back within ${WITHIN_MB} MB of idle within ${WITHIN_MS / 1000} s: ${fmt(last, 1)} MiB (idle ${fmt(idle, 1)})`
      : `RSS back within ${WITHIN_MB} MB of idle ${fmt(backAfter / 1000, 2)} s after the last hook: ${fmt(backAt, 1)} MiB (idle ${fmt(idle, 1)}, ${signed(backAt - idle)}); ${fmt(last, 1)} MiB (${signed(last - idle)}) at ${WITHIN_MS / 1000} s`,
  );
  console.log(`paused readers ended when read again: ${closed} of ${N}; bytes still waiting for them, median ${fmt(median(after) / 1048576, 2)} MB`);
  console.log(`reading control stream: ${controlOk ? "got every hook, still open" : "FAILED (missed hooks or ended)"}`);
  if (backAfter === undefined || !controlOk || closed !== N) process.exitCode = 1;
} finally {
  await server.stop();
}
