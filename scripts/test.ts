/**
 * `npm test`: the whole suite from source, then every suite that starts Mailroom with startTarget or
 * startTranslate (test/helpers/target.ts) again on each other target: the compiled executable on
 * SQLite, and on PostgreSQL (with the browser tests). The executable is built once for every run
 * (MAILROOM_TEST_BINARY); one throwaway PostgreSQL cluster (test/helpers/postgres.ts) serves every
 * run (MAILROOM_TEST_PG_URL); each test makes its own database on it. Then the examples of
 * examples/ from the release's npm tarballs, installed offline (scripts/examples.sh; MAILROOM_SKIP_EXAMPLES=1 leaves them out).
 * Two `bun test` processes run at once (MAILROOM_TEST_JOBS=1: one after the other), see below.
 *
 * `npm run test:quick` (--quick): only the files that start no process, browser or PostgreSQL
 * (scripts/test-files.ts), from source, in one run: the loop while developing.
 *
 * Prints each run's counts and time and ends with one line "N passed, N failed"; exits non-zero
 * when anything failed or no test ran. Under CI (CI=true) a missing Chromium or PostgreSQL fails the
 * run; elsewhere the suites that need them are left out with a notice. Extra arguments go to every
 * `bun test` run (a file filter, --bail, ...), and leave the examples out.
 */
import { existsSync } from "node:fs";
import { compile } from "../test/helpers/binary";
import { CHROMIUM, UNDER_CI } from "../test/helpers/ci";
import { postgresAvailable, startPostgresCluster } from "../test/helpers/postgres";
import { testFiles } from "./test-files";

const quick = Bun.argv.includes("--quick");
const args = Bun.argv.slice(2).filter((a) => a !== "--quick");
/**
 * Each test's time limit unless it sets its own: 20 s, for a busy machine (tests that start
 * executables take several seconds there). Bun reads no `timeout` from bunfig.toml, so without
 * this flag it is Bun's 5 s; an argument --timeout overrides it.
 */
const TIMEOUT = args.some((a) => a.startsWith("--timeout")) ? [] : ["--timeout=20000"];
/** How many `bun test` processes run at once: 2 (docs/testing.md has the times), or 1. */
const JOBS = Number(process.env.MAILROOM_TEST_JOBS ?? 2);
type Result = { label: string; passed: number; failed: number; skipped: number; seconds: number };
const results: Result[] = [];
const started = performance.now();
const seconds = (since: number) => (performance.now() - since) / 1000;

/**
 * Runs `bun test` on `files` (every file when empty); counts from its summary. Its output is
 * streamed, or with `buffered` printed whole once it ends (a run beside another).
 */
async function run(label: string, files: string[], env: Record<string, string>, buffered = false): Promise<void> {
  const head = `\n== bun test (${label})\n`;
  if (!buffered) process.stdout.write(head);
  const t0 = performance.now();
  const proc = Bun.spawn([process.execPath, "test", ...TIMEOUT, ...files, ...args], {
    env: { ...process.env, ...env },
    stdout: "pipe",
    stderr: "pipe",
  });
  let text = "";
  const pump = async (stream: ReadableStream<Uint8Array>, out: NodeJS.WriteStream) => {
    const decoder = new TextDecoder();
    for await (const chunk of stream) {
      if (!buffered) out.write(chunk);
      text += decoder.decode(chunk, { stream: true });
    }
  };
  await Promise.all([pump(proc.stdout, process.stdout), pump(proc.stderr, process.stderr)]);
  const code = await proc.exited;
  if (buffered) process.stdout.write(head + text);
  const count = (word: string) => Number([...text.matchAll(new RegExp(`^\\s*(\\d+) ${word}$`, "gm"))].at(-1)?.[1] ?? 0);
  const result = { label, passed: count("pass"), failed: count("fail"), skipped: count("skip"), seconds: seconds(t0) };
  if (code !== 0 && result.failed === 0) result.failed = 1;
  console.log(`== ${label}: ${result.seconds.toFixed(1)} s`);
  results.push(result);
}

/**
 * The examples of examples/, as a user runs them: the npm tarballs installed into a fresh project,
 * under bun test, node --test and jest (scripts/examples.sh). Each example counts as one test.
 */
async function examples(buffered: boolean): Promise<void> {
  if (process.env.MAILROOM_SKIP_EXAMPLES || args.length > 0) return;
  const head = "\n== examples (the release's npm tarballs, a fresh project per example)\n";
  if (!buffered) process.stdout.write(head);
  const t0 = performance.now();
  const proc = Bun.spawn(["sh", "scripts/examples.sh"], { stdout: "pipe", stderr: "pipe" });
  const [text, errors, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  process.stdout.write(`${buffered ? head : ""}${text}`);
  process.stderr.write(errors);
  const passed = (text.match(/^examples: \S+: passed$/gm) ?? []).length;
  let failed = (text.match(/^examples: \S+: failed$/gm) ?? []).length;
  if (code !== 0 && failed === 0) failed = 1;
  results.push({ label: "examples", passed, failed, skipped: 0, seconds: seconds(t0) });
}

/** Prints the summary and exits: non-zero when anything failed or nothing ran. */
function finish(): never {
  console.log("\n== summary");
  for (const r of results) {
    console.log(`  ${r.label}: ${r.passed} passed, ${r.failed} failed${r.skipped ? `, ${r.skipped} skipped` : ""} (${r.seconds.toFixed(1)} s)`);
  }
  const passed = results.reduce((n, r) => n + r.passed, 0);
  const failed = results.reduce((n, r) => n + r.failed, 0);
  console.log(`  total: ${seconds(started).toFixed(1)} s`);
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed > 0 || passed === 0 ? 1 : 0);
}

/** A step that is not a test run (the build, a missing tool), counted as one failure. */
function problem(label: string, message: string): never {
  console.error(`\n${label}: ${message}`);
  results.push({ label, passed: 0, failed: 1, skipped: 0, seconds: 0 });
  finish();
}

/** Times a step that is not a test run, for the summary. */
async function step<T>(label: string, fn: () => Promise<T>): Promise<T> {
  const t0 = performance.now();
  try {
    const value = await fn();
    results.push({ label, passed: 0, failed: 0, skipped: 0, seconds: seconds(t0) });
    return value;
  } catch (error) {
    problem(label, (error as Error).message);
  }
}

const files = testFiles();
if (quick) {
  const chosen = files.filter((f) => f.quick).map((f) => f.path);
  console.log(`quick: ${chosen.length} of ${files.length} test files (none starts a process, a browser or PostgreSQL; npm test runs them all)`);
  await run("source, quick suites", chosen, {});
  finish();
}

const postgres = postgresAvailable();
if (!existsSync(CHROMIUM)) {
  if (UNDER_CI) problem("chromium", `CI=true and no Chromium at ${CHROMIUM}: the browser tests must run (.ci/chromium.sh installs it)`);
  console.warn(`notice: no Chromium at ${CHROMIUM}: the browser tests are skipped (run .ci/chromium.sh, or set CHROMIUM_PATH)`);
}
process.env.MAILROOM_TEST_BINARY ||= await step("build the executable once", compile);
const cluster = postgres && !process.env.MAILROOM_TEST_PG_URL ? await step("start PostgreSQL", () => startPostgresCluster()) : undefined;
if (cluster) process.env.MAILROOM_TEST_PG_URL = cluster.url;

// Without PostgreSQL (outside CI only), the files that need it are left out and say so.
const here = postgres ? files : files.filter((f) => !f.postgres);
if (here.length < files.length) console.warn(`notice: no PostgreSQL: ${files.length - here.length} test files and the executable-pg run are skipped`);
const shared = files.filter((f) => f.target).map((f) => f.path);
// On PostgreSQL, the browser tests too (they start the executable with storageToml()).
const onPg = [...shared, ...files.filter((f) => f.browser).map((f) => f.path)];

/** The runs on the executable; `buffered` when they go beside another run. */
async function targets(buffered: boolean): Promise<void> {
  await run(`executable, ${shared.length} shared suites`, shared, { MAILROOM_TEST_TARGET: "executable" }, buffered);
  if (postgres) await run(`executable-pg, ${onPg.length} shared suites`, onPg, { MAILROOM_TEST_TARGET: "executable-pg" }, buffered);
}

if (JOBS > 1) {
  // Two lanes of about the same length: the files that start processes (mostly waiting on them)
  // and the examples; beside them the in-process files, then the executable's runs.
  const inProcess = here.filter((f) => f.quick).map((f) => f.path);
  const processes = here.filter((f) => !f.quick).map((f) => f.path);
  await Promise.all([
    (async () => {
      await run(`source, ${processes.length} suites that start processes`, processes, {});
      await examples(false);
    })(),
    (async () => {
      await run(`source, ${inProcess.length} in-process suites`, inProcess, {}, true);
      await targets(true);
    })(),
  ]);
} else {
  await run("source, every suite", here.length < files.length ? here.map((f) => f.path) : [], {});
  await targets(false);
  await examples(false);
}
await cluster?.stop();
finish();
