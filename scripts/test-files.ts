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
