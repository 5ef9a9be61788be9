/**
 * `npm test`: the whole suite from source, then every suite that starts Mailroom with startTarget or
 * startTranslate (test/helpers/target.ts) again on each other target: the compiled executable on
 * SQLite, and on PostgreSQL. One throwaway PostgreSQL cluster (test/helpers/postgres.ts) serves every
 * run (MAILROOM_TEST_PG_URL); each test makes its own database on it. Prints each run's counts and ends
 * with one line "N passed, N failed"; exits non-zero when anything failed or no test ran.
 *
 * Then the examples of examples/ from a packed tarball (scripts/examples.sh; MAILROOM_SKIP_EXAMPLES=1
 * leaves them out). Extra arguments go to every `bun test` run (a file filter, --bail, ...), and
 * leave the examples out.
 */
import { Glob } from "bun";
import { readFileSync } from "node:fs";
import { startPostgresCluster } from "../test/helpers/postgres";

const TARGETS = ["executable", "executable-pg"];
const args = Bun.argv.slice(2);

/** Test files that start Mailroom through test/helpers/target.ts: they run on every target. */
function targetSuites(): string[] {
  const files = [...new Glob("test/**/*.test.ts").scanSync(".")].sort();
  return files.filter((f) => /\bstart(Target|Translate)\(/.test(readFileSync(f, "utf8")));
}

async function run(label: string, files: string[], env: Record<string, string>) {
  console.log(`\n== bun test (${label})`);
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
  const count = (word: string) => Number(/^\s*(\d+) (?:pass|fail)$/m.exec(text.split("\n").filter((l) => new RegExp(`^\\s*\\d+ ${word}$`).test(l)).at(-1) ?? "")?.[1] ?? 0);
  const passed = count("pass");
  let failed = count("fail");
  if (code !== 0 && failed === 0) failed = 1;
  return { label, passed, failed };
}

const cluster = process.env.MAILROOM_TEST_PG_URL ? undefined : await startPostgresCluster();
if (cluster) process.env.MAILROOM_TEST_PG_URL = cluster.url;
const results = [await run("source, every suite", [], {})];
const shared = targetSuites();
// On PostgreSQL, the browser tests too (they start the executable with storageToml()).
const browser = [...new Glob("test/browser/*.test.ts").scanSync(".")].sort();
for (const target of TARGETS) {
  const files = target === "executable-pg" ? [...shared, ...browser] : shared;
  results.push(await run(`${target}, ${files.length} shared suites`, files, { MAILROOM_TEST_TARGET: target }));
}

// The examples of examples/, as a user runs them: a packed tarball installed into a fresh project,
// under bun test and node --test (scripts/examples.sh). Each example counts as one test.
if (!process.env.MAILROOM_SKIP_EXAMPLES && args.length === 0) {
  console.log("\n== examples (npm pack, a fresh project per example)");
  const proc = Bun.spawn(["sh", "scripts/examples.sh"], { stdout: "pipe", stderr: "inherit" });
  const text = await new Response(proc.stdout).text();
  process.stdout.write(text);
  const code = await proc.exited;
  const passed = (text.match(/^examples: \S+: passed$/gm) ?? []).length;
  let failed = (text.match(/^examples: \S+: failed$/gm) ?? []).length;
  if (code !== 0 && failed === 0) failed = 1;
  results.push({ label: "examples", passed, failed });
}

await cluster?.stop();
console.log("\n== summary");
for (const r of results) console.log(`  ${r.label}: ${r.passed} passed, ${r.failed} failed`);
const passed = results.reduce((n, r) => n + r.passed, 0);
const failed = results.reduce((n, r) => n + r.failed, 0);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
