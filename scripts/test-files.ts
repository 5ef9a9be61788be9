/**
 * Which test files `npm test` runs where, read from their text and that of the test helpers they
 * import (relative imports under test/, followed to the end):
 *
 * - target suites start Mailroom with startTarget or startTranslate (test/helpers/target.ts): they
 *   run again on the executable and on PostgreSQL;
 * - quick files run in this process only: they start no process (no executable, no `bun src/main.ts`,
 *   no command), no browser and no PostgreSQL. `npm run test:quick` runs them from source.
 * - postgres files need the test cluster (freshDatabase, startInstance and the like).
 *
 * `bun scripts/test-files.ts` prints the figures of docs/testing.md that are counted, not timed: test
 * files and `test(` calls per folder, and per run of `npm test`.
 *
 * @example
 * classify("test/hooks/management.test.ts") // { target: true, quick: true, postgres: false }
 */
import { Glob } from "bun";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

export type TestFile = { path: string; target: boolean; quick: boolean; postgres: boolean; browser: boolean };

const TARGET = /\bstart(Target|Translate)\(/;
/** Starts a process, the executable or a browser. The helpers that only offer it are not counted. */
const PROCESS = /\b(Bun\.spawn|Bun\.spawnSync|spawnSync|startProcess|buildBinary|launch)\(|from "node:child_process"/;
const POSTGRES = /\b(freshDatabase|newDatabase|postgresCluster|startPostgresCluster|startInstance)\(|MAILROOM_TEST_PG_URL/;
/** Helpers that define these functions; a test calling them is caught by its own text. */
const PROVIDERS = ["test/helpers/binary.ts", "test/helpers/target.ts", "test/helpers/postgres.ts", "test/helpers/instances.ts"];

function imports(file: string, root: string, seen = new Set<string>()): Set<string> {
  if (seen.has(file)) return seen;
  seen.add(file);
  for (const m of readFileSync(file, "utf8").matchAll(/from "(\.[^"]+)"/g)) {
    const base = resolve(dirname(file), m[1]!);
    const found = [base, `${base}.ts`, join(base, "index.ts")].find((c) => c.endsWith(".ts") && existsSync(c));
    if (found && relative(root, found).startsWith("test/")) imports(found, root, seen);
  }
  return seen;
}

export function classify(path: string, root = process.cwd()): TestFile {
  const own = readFileSync(join(root, path), "utf8");
  const texts = [...imports(join(root, path), root)].filter((f) => !PROVIDERS.includes(relative(root, f))).map((f) => readFileSync(f, "utf8"));
  const browser = path.startsWith("test/browser/");
  const postgres = texts.some((t) => POSTGRES.test(t));
  const spawns = texts.some((t) => PROCESS.test(t));
  return { path, target: TARGET.test(own), quick: !browser && !postgres && !spawns, postgres, browser };
}

/** Every test file under test/, sorted, classified. */
export function testFiles(root = process.cwd()): TestFile[] {
  return [...new Glob("test/**/*.test.ts").scanSync(root)].sort().map((f) => classify(f, root));
}

/** The `test(` calls written in a file (`test.each(...)(`, `test.skipIf(...)(` too); loops and `.each` run some of them more than once. */
export function testCalls(text: string): number {
  return (text.match(/^\s*test(\.(each|skipIf|if|serial|concurrent)(\([^)]*\))?)?\(/gm) ?? []).length;
}

function printCounts(): void {
  const files = testFiles().map((f) => ({ ...f, tests: testCalls(readFileSync(f.path, "utf8")) }));
  type Files = typeof files;
  const sum = (list: Files) => list.reduce((n, f) => n + f.tests, 0);
  const cell = (list: Files) => (list.length ? `${list.length} (${sum(list)})` : "");
  const folders = Map.groupBy(files, (f) => (f.path.split("/").length > 2 ? `test/${f.path.split("/")[1]}/` : "test/*.test.ts"));
  console.log("| folder | files (`test(` calls) | target suites | in process | need PostgreSQL | browser |");
  console.log("|---|---|---|---|---|---|");
  for (const [folder, list] of [...folders].sort(([a], [b]) => a.localeCompare(b)))
    console.log(
      `| ${folder} | ${cell(list)} | ${cell(list.filter((f) => f.target))} | ${cell(list.filter((f) => f.quick))} | ${cell(list.filter((f) => f.postgres))} | ${cell(list.filter((f) => f.browser))} |`,
    );
  console.log(
    `| **all** | **${cell(files)}** | ${cell(files.filter((f) => f.target))} | ${cell(files.filter((f) => f.quick))} | ${cell(files.filter((f) => f.postgres))} | ${cell(files.filter((f) => f.browser))} |`,
  );
  const shared = files.filter((f) => f.target);
  console.log("\n| run of `npm test` | files (`test(` calls) |\n|---|---|");
  console.log(`| source, in-process suites | ${cell(files.filter((f) => f.quick))} |`);
  console.log(`| source, suites that start processes | ${cell(files.filter((f) => !f.quick))} |`);
  console.log(`| executable | ${cell(shared)} |`);
  console.log(`| executable-pg (the target suites and the browser tests) | ${cell([...shared, ...files.filter((f) => f.browser)])} |`);
}

if (import.meta.main) printCounts();
