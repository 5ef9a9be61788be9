/**
 * `npm test`: the whole suite from source, then every suite that starts Mailroom with startTarget or
 * startTranslate (test/helpers/target.ts) again on each other target: the compiled executable on
 * SQLite, and on PostgreSQL (with the browser tests). The executable is built once for every run
 * (MAILROOM_TEST_BINARY); one throwaway PostgreSQL cluster (test/helpers/postgres.ts) serves every
 * run (MAILROOM_TEST_PG_URL); each test makes its own database on it. Then the examples of
 * examples/ from a packed tarball (scripts/examples.sh; MAILROOM_SKIP_EXAMPLES=1 leaves them out).
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
type Result = { label: string; passed: number; failed: number; skipped: number; seconds: number };
const results: Result[] = [];
const started = performance.now();
const seconds = (since: number) => (performance.now() - since) / 1000;

/** Runs `bun test` on `files` (every file when empty), its output streamed; counts from its summary. */
async function run(label: string, files: string[], env: Record<string, string>): Promise<Result> {
  console.log(`\n== bun test (${label})`);
  const t0 = performance.now();
  const proc = Bun.spawn([process.execPath, "test", ...files, ...args], {
    env: { ...process.env, ...env }, stdout: "pipe", stderr: "pipe",
  });
  let text = "";
  const pump = async (stream: ReadableStream<Uint8Array>, out: NodeJS.WriteStream) => {
    const decoder = new TextDecoder();
    for await (const chunk of stream) {
      out.write(chunk);
      text += decoder.decode(chunk, { stream: true });
    }
  };
  await Promise.all([pump(proc.stdout, process.stdout), pump(proc.stderr, process.stderr)]);
  const code = await proc.exited;
  const count = (word: string) => Number([...text.matchAll(new RegExp(`^\\s*(\\d+) ${word}$`, "gm"))].at(-1)?.[1] ?? 0);
  const result = { label, passed: count("pass"), failed: count("fail"), skipped: count("skip"), seconds: seconds(t0) };
  if (code !== 0 && result.failed === 0) result.failed = 1;
  console.log(`== ${label}: ${result.seconds.toFixed(1)} s`);
  results.push(result);
  return result;
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

/** A step that is not a test run (building, a missing tool) counted as one failure when it fails. */
function problem(label: string, message: string): never {
  console.error(`\n${label}: ${message}`);
  results.push({ label, passed: 0, failed: 1, skipped: 0, seconds: 0 });
  finish();
}

const files = testFiles();
if (quick) {
  const chosen = files.filter((f) => f.quick).map((f) => f.path);
  console.log(`quick: ${chosen.length} of ${files.length} test files (no process, browser or PostgreSQL; npm test runs them all)`);
  await run("source, quick suites", chosen, {});
  finish();
}

const browser = existsSync(CHROMIUM);
const postgres = postgresAvailable();
if (UNDER_CI && !browser) problem("chromium", `CI=true and no Chromium at ${CHROMIUM}: the browser tests must run (.ci/chromium.sh)`);
if (!browser) console.warn(`notice: no Chromium at ${CHROMIUM}: the browser tests are skipped (run .ci/chromium.sh, or set CHROMIUM_PATH)`);

let t0 = performance.now();
try {
  process.env.MAILROOM_TEST_BINARY ||= await compile();
} catch (error) {
  problem("build", (error as Error).message);
}
results.push({ label: "build the executable once", passed: 0, failed: 0, skipped: 0, seconds: seconds(t0) });

t0 = performance.now();
let cluster: Awaited<ReturnType<typeof startPostgresCluster>> | undefined;
if (postgres && !process.env.MAILROOM_TEST_PG_URL) {
  try {
    cluster = await startPostgresCluster();
  } catch (error) {
    problem("postgresql", (error as Error).message);
  }
  process.env.MAILROOM_TEST_PG_URL = cluster.url;
  results.push({ label: "start PostgreSQL", passed: 0, failed: 0, skipped: 0, seconds: seconds(t0) });
}

// Without PostgreSQL (outside CI only), the files that need it are left out and say so.
const here = postgres ? files : files.filter((f) => !f.postgres);
if (here.length < files.length) console.warn(`notice: ${files.length - here.length} test files and the executable-pg run need PostgreSQL: skipped`);
await run("source, every suite", here.length < files.length ? here.map((f) => f.path) : [], {});
const shared = files.filter((f) => f.target).map((f) => f.path);
await run(`executable, ${shared.length} shared suites`, shared, { MAILROOM_TEST_TARGET: "executable" });
if (postgres) {
  // On PostgreSQL, the browser tests too (they start the executable with storageToml()).
  const onPg = [...shared, ...files.filter((f) => f.browser).map((f) => f.path)];
  await run(`executable-pg, ${onPg.length} shared suites`, onPg, { MAILROOM_TEST_TARGET: "executable-pg" });
}
await cluster?.stop();

// The examples of examples/, as a user runs them: a packed tarball installed into a fresh project,
// under bun test and node --test (scripts/examples.sh). Each example counts as one test.
if (!process.env.MAILROOM_SKIP_EXAMPLES && args.length === 0) {
  console.log("\n== examples (npm pack, a fresh project per example)");
  t0 = performance.now();
  const proc = Bun.spawn(["sh", "scripts/examples.sh"], { stdout: "pipe", stderr: "inherit" });
  const text = await new Response(proc.stdout).text();
  process.stdout.write(text);
  const code = await proc.exited;
  const passed = (text.match(/^examples: \S+: passed$/gm) ?? []).length;
  let failed = (text.match(/^examples: \S+: failed$/gm) ?? []).length;
  if (code !== 0 && failed === 0) failed = 1;
  results.push({ label: "examples", passed, failed, skipped: 0, seconds: seconds(t0) });
}

finish();
