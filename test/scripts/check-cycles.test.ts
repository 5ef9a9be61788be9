import { afterAll, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseLayers } from "../../scripts/check-cycles";

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

function check(dir: string, ...options: string[]) {
  const run = Bun.spawnSync(
    [process.execPath, join(import.meta.dir, "../../scripts/check-cycles.ts"), "--project", "tsconfig.json", "--root", "src", ...options],
    {
      cwd: dir,
    },
  );
  return { code: run.exitCode, out: run.stdout.toString(), err: run.stderr.toString() };
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

/** A tree in three layers, as docs/architecture.md writes them: lib/ at the bottom, then config/ and app.ts. */
const LAYERS = `# Architecture

<!-- layers: bottom to top -->
\`\`\`
lib/          pure helpers
config/       the loader;
              imports lib/ only
app.ts, run.ts
              the composition and its entry
\`\`\`
`;
const layered = {
  "docs/layers.md": LAYERS,
  "src/lib/units.ts": `export const seconds = (n: number) => n * 1000;\n`,
  "src/lib/clock.ts": `import { seconds } from "./units";\nexport const tick = seconds(1);\n`,
  "src/config/load.ts": `import { seconds } from "../lib/units";\nimport type { Tick } from "../lib/types";\nexport const load = (): Tick => seconds(2);\n`,
  "src/lib/types.ts": `export type Tick = number;\n`,
  "src/app.ts": `import { load } from "./config/load";\nimport { tick } from "./lib/clock";\nexport const app = () => load() + tick;\n`,
  "src/run.ts": `import { app } from "./app";\napp();\n`,
};

test("a layered tree passes the folder and layer checks", () => {
  const { code, out } = check(project(layered), "--folders", "--layers", "docs/layers.md");
  expect(out).toContain("no import cycles among 6 files under src");
  expect(out).toContain("no cycles among the 4 folders and files directly under src");
  expect(out).toContain("every import under src follows the 3 layers of docs/layers.md");
  expect(code).toBe(0);
});

test("an upward import that closes a folder cycle fails both checks, naming the file import", () => {
  // lib/clock.ts -> config/load.ts: no file cycle (load.ts imports lib/units.ts), but lib/ and config/ now import each other.
  const dir = project({
    ...layered,
    "src/lib/clock.ts": `import { seconds } from "./units";\nimport type { load } from "../config/load";\nexport const tick = seconds(1);\nexport type Load = typeof load;\n`,
  });
  const folders = check(dir, "--folders");
  expect(folders.out).toContain("no import cycles among 6 files under src");
  expect(folders.out).toContain("1 group(s) of folders under src that import each other:\n  config/, lib/\n");
  expect(folders.out).toMatch(/ {4}lib\/ -> config\/ \(types only\): 1 import\(s\)\n {6}src\/lib\/clock\.ts -> src\/config\/load\.ts +import type\n/);
  expect(folders.out).toMatch(/ {4}config\/ -> lib\/: 2 import\(s\)\n/);
  expect(folders.code).toBe(1);

  const layers = check(dir, "--layers", "docs/layers.md");
  expect(layers.out).toMatch(
    /1 import\(s\) from a lower layer to a higher one \(the layers of docs\/layers\.md\):\n {2}lib\/ -> config\/: 1 import\(s\)\n {4}src\/lib\/clock\.ts -> src\/config\/load\.ts +import type\n/,
  );
  expect(layers.code).toBe(1);

  // Without the two options only file cycles count, as before.
  expect(check(dir).code).toBe(0);
});

test("a file that imports a higher layer fails the layer check even without a cycle", () => {
  // lib/clock.ts imports version.ts, a top-level file of the top layer that imports nothing back: no cycle, one upward import.
  const dir = project({
    ...layered,
    "src/version.ts": `export const version = "1";\n`,
    "docs/layers.md": LAYERS.replace("app.ts, run.ts", "version.ts, app.ts, run.ts"),
    "src/lib/clock.ts": `import { seconds } from "./units";\nimport { version } from "../version";\nexport const tick = seconds(version.length);\n`,
  });
  const folders = check(dir, "--folders");
  expect(folders.out).toContain("no cycles among the 5 folders and files directly under src");
  expect(folders.code).toBe(0);
  const layers = check(dir, "--folders", "--layers", "docs/layers.md");
  expect(layers.out).toMatch(/ {2}lib\/ -> version\.ts: 1 import\(s\)\n {4}src\/lib\/clock\.ts -> src\/version\.ts +import\n/);
  expect(layers.code).toBe(1);
});

test("a folder that no layer names fails the layer check; a layer not made yet is only mentioned", () => {
  const dir = project({
    ...layered,
    "docs/layers.md": LAYERS.replace("config/       the loader;", "schema/       tables\nconfig/       the loader;"),
    "src/triggers/index.ts": `import { tick } from "../lib/clock";\nexport const trigger = tick;\n`,
  });
  const { code, out } = check(dir, "--layers", "docs/layers.md");
  expect(out).toContain("under src but in no layer of docs/layers.md:\n  triggers/ (1 file(s))\n");
  expect(out).toContain("(in the layers of docs/layers.md, not under src yet: schema/)");
  expect(code).toBe(1);
});

test("a layer list it cannot read is a usage error", () => {
  const dir = project({ ...layered, "docs/layers.md": "# Architecture\n\nno list here\n" });
  const { code, err } = check(dir, "--layers", "docs/layers.md");
  expect(err).toContain("docs/layers.md: no line `<!-- layers: bottom to top -->`");
  expect(code).toBe(2);
});

test("docs/architecture.md's layer list reads, bottom first, with lib/ at the bottom", () => {
  const layers = parseLayers(readFileSync(join(import.meta.dir, "../../docs/architecture.md"), "utf8"));
  expect(layers[0]).toEqual(["lib"]);
  expect(layers.flat()).toContain("app.ts");
  expect(layers.flat()).toContain("db");
});
