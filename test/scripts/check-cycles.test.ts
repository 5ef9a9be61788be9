import { afterAll, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** scripts/check-cycles.ts over a small project written for each case: what it prints and its exit status. */
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function project(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "mailroom-cycles-"));
  dirs.push(dir);
  const all = {
    "tsconfig.json": JSON.stringify({
      compilerOptions: { module: "ESNext", moduleResolution: "bundler", allowImportingTsExtensions: true, noEmit: true },
      include: ["src"],
    }),
    ...files,
  };
  for (const [path, text] of Object.entries(all)) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

function check(dir: string) {
  const run = Bun.spawnSync([process.execPath, join(import.meta.dir, "../../scripts/check-cycles.ts"), "--project", "tsconfig.json", "--root", "src"], {
    cwd: dir,
  });
  return { code: run.exitCode, out: run.stdout.toString() };
}

test("each cycle is printed with the kind of each edge, and the check fails", () => {
  const dir = project({
    "src/a.ts": `import { b } from "./b";\nexport type A = { b: typeof b };\n`,
    "src/b.ts": `import type { A } from "./a";\nexport const b = 1;\nexport type B = A;\n`,
    "src/c/index.ts": `export const load = () => import("../d");\n`,
    "src/d.ts": `export { load } from "./c";\n`,
    "src/e.ts": `import { b } from "./b";\nexport const e = b;\n`,
  });
  const { code, out } = check(dir);
  expect(code).toBe(1);
  expect(out).toContain("cycle 1 (1 of 2 edges type-only):");
  expect(out).toMatch(/src\/a\.ts -> src\/b\.ts +import\n/);
  expect(out).toMatch(/src\/b\.ts -> src\/a\.ts +import type\n/);
  expect(out).toContain("cycle 2 (at run time):");
  expect(out).toMatch(/src\/c\/index\.ts -> src\/d\.ts +dynamic import\(\)\n/);
  expect(out).toMatch(/src\/d\.ts -> src\/c\/index\.ts +export from\n/);
  expect(out).toContain("2 cycle(s) in 2 group(s)");
  expect(out).not.toContain("src/e.ts");
});

test("a program without cycles passes", () => {
  const dir = project({
    "src/a.ts": `import { b } from "./b";\nimport type { C } from "./c";\nexport const a: C = b;\n`,
    "src/b.ts": `import { type C } from "./c";\nexport const b: C = 1;\n`,
    "src/c.ts": `export type C = number;\n`,
  });
  const { code, out } = check(dir);
  expect(out).toContain("no import cycles among 3 files under src");
  expect(code).toBe(0);
});

test("inline type names and import() types count as type-only edges", () => {
  const dir = project({
    "src/a.ts": `import { type B } from "./b";\nexport type A = B | 1;\n`,
    "src/b.ts": `export type B = import("./a").A[];\n`,
  });
  const { code, out } = check(dir);
  expect(code).toBe(1);
  expect(out).toContain("2 of 2 edges type-only");
  expect(out).toMatch(/src\/a\.ts -> src\/b\.ts +type names\n/);
  expect(out).toMatch(/src\/b\.ts -> src\/a\.ts +import\(\) type\n/);
});
