/**
 * Start-up benchmark: how long the executable takes to be of use, measured from spawn.
 *
 * - `--version`: to exit (what every command pays before it does anything);
 * - `hooks ls`: a client command against a running server, to exit (the server is one
 *   dist/mailroom holding 20 hooks, the same for every executable measured);
 * - `serve`: to the line `listening on` (a restart on a data file already migrated; each
 *   executable has its own), then stopped with SIGTERM outside the timing.
 *
 * Each round runs every measure once per executable; the executables take turns within a round and
 * their order alternates between rounds, so a busy moment of the machine does not fall on one of
 * them. Prints each measure's median, fastest and slowest per executable.
 *
 * With --compare PATH, another executable (for example one built before a change) runs beside
 * dist/mailroom in the same rounds: a before/after in one run.
 *
 *   bun run bench/startup.ts [--rounds 15] [--compare PATH] [--no-build]
 */
import { rmSync } from "node:fs";
import { parseArgs } from "node:util";
import { AUTH, BIN, TOKEN, buildBinary, fmt, mailroomDir, median, pad, start } from "./lib";

const { values: args } = parseArgs({
  options: {
    rounds: { type: "string", default: "15" },
    compare: { type: "string" },
    "no-build": { type: "boolean", default: false },
  },
});
const rounds = Number(args.rounds);
if (!Number.isInteger(rounds) || rounds < 1) throw new Error(`--rounds: a whole number of at least 1, not ${args.rounds}`);
if (!args["no-build"]) buildBinary();

const executables: [string, string][] = [["mailroom", BIN], ...(args.compare ? [["compare", args.compare] as [string, string]] : [])];
const measures = ["--version", "hooks ls", "serve"] as const;
type Measure = (typeof measures)[number];
const times = new Map<string, number[]>();
const record = (label: string, measure: Measure, ms: number) => {
  const key = `${label}\t${measure}`;
  times.set(key, [...(times.get(key) ?? []), ms]);
};

/** Runs argv to its exit: milliseconds from spawn. Throws on a non-zero exit. */
async function timed(argv: string[]): Promise<number> {
  const t0 = performance.now();
  const proc = Bun.spawn(argv, { stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [code, out, err] = await Promise.all([proc.exited, new Response(proc.stdout).arrayBuffer(), new Response(proc.stderr).text()]);
  const ms = performance.now() - t0;
  if (code !== 0) throw new Error(`${argv.join(" ")} exited with ${code} (${out.byteLength} bytes out):\n${err}`);
  return ms;
}

const dirs: string[] = [];
const server = await start([BIN], { cwd: (dirs.push(mailroomDir({ durability: "full" })), dirs.at(-1)!) });
try {
  for (let i = 0; i < 20; i++) {
    const r = await fetch(`${server.url}/?channel=startup`, { method: "POST", body: JSON.stringify({ n: i }) });
    if (r.status !== 200) throw new Error(`catching answered ${r.status}`);
  }
  const ls = (bin: string) => [bin, "hooks", "ls", "--url", server.url, "--token", TOKEN];
  // Each executable restarts on its own data file (an older one may not know a newer schema).
  const dataDirs = new Map(executables.map(([label]) => [label, mailroomDir({ durability: "full" })]));
  dirs.push(...dataDirs.values());
  // Warm-up, not timed: the page cache holds each executable, and each data file is migrated.
  for (const [label, bin] of executables) {
    await timed([bin, "--version"]);
    await timed(ls(bin));
    await (await start([bin], { cwd: dataDirs.get(label)! })).stop();
  }
  if ((await fetch(`${server.url}/v1/hooks?limit=1`, { headers: AUTH })).status !== 200) throw new Error("the server does not list hooks");

  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? executables : [...executables].reverse();
    for (const [label, bin] of order) {
      record(label, "--version", await timed([bin, "--version"]));
      record(label, "hooks ls", await timed(ls(bin)));
      const serving = await start([bin], { cwd: dataDirs.get(label)! });
      record(label, "serve", serving.startMs);
      await serving.stop();
    }
    process.stderr.write(`round ${round + 1}/${rounds}\r`);
  }
} finally {
  await server.stop();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}

console.log(`\nstart-up, ${rounds} rounds, milliseconds from spawn (median, fastest-slowest)`);
console.log(`${"".padEnd(12)}${executables.map(([label]) => pad(label, 22)).join("")}${args.compare ? pad("change", 10) : ""}`);
for (const measure of measures) {
  const cells = executables.map(([label]) => {
    const xs = times.get(`${label}\t${measure}`)!;
    return { median: median(xs), min: Math.min(...xs), max: Math.max(...xs) };
  });
  // dist/mailroom against the executable compared with.
  const change =
    cells.length === 2
      ? pad(`${cells[0]!.median < cells[1]!.median ? "" : "+"}${fmt(((cells[0]!.median - cells[1]!.median) / cells[1]!.median) * 100, 0)}%`, 10)
      : "";
  console.log(`${measure.padEnd(12)}${cells.map((c) => pad(`${fmt(c.median, 0)} (${fmt(c.min, 0)}-${fmt(c.max, 0)})`, 22)).join("")}${change}`);
}
if (args.compare) console.log(`compare: ${args.compare}`);
