import { expect, test } from "bun:test";
import { duplicates, fresh, unusedExports } from "../../scripts/warn-repeats";

/** scripts/warn-repeats.ts: which findings of jscpd and knip count as new against the baseline. */
const place = (name: string, start: number) => ({ name, start, end: start + 6 });
const clone = (fragment: string, a: string, b: string, at = 1) => ({ firstFile: place(a, at), secondFile: place(b, at + 10), fragment, lines: 7 });

test("a duplicate is known by the text it repeats: moved or shifted it is not new, edited it is", () => {
  const before = duplicates({ duplicates: [clone("const a = 1;\n  const b = 2;", "src/hooks/store.ts", "src/db/pg/hook-store.ts")] });
  const known = Object.fromEntries(before.map((f) => [f.key, f.where]));
  expect(known).toEqual({ [before[0]!.key]: "src/db/pg/hook-store.ts, src/hooks/store.ts" });

  const moved = duplicates({ duplicates: [clone("const a = 1;\n    const b = 2;", "src/db/sqlite/hook-store.ts", "src/db/pg/hook-store.ts", 40)] });
  expect(fresh(moved, known)).toEqual([]);

  const edited = duplicates({ duplicates: [clone("const a = 1;\n  const b = 3;", "src/hooks/store.ts", "src/db/pg/hook-store.ts")] });
  expect(fresh(edited, known).map((f) => f.text)).toEqual(["7 lines repeated in src/db/pg/hook-store.ts:11-17, src/hooks/store.ts:1-7"]);
});

test("one fragment found in three places is one finding", () => {
  const found = duplicates({ duplicates: [clone("x();", "a.ts", "b.ts"), clone("x();", "a.ts", "c.ts"), clone("x();", "b.ts", "c.ts")] });
  expect(found).toHaveLength(1);
  expect(found[0]!.where).toBe("a.ts, b.ts, c.ts");
});

test("an unused export is known by kind, name and file name: a git mv keeps it, a new one is new", () => {
  const report = (file: string, names: string[]) => ({
    issues: [{ file, exports: names.map((name, i) => ({ name, line: i + 3, col: 14, pos: 0 })), types: [{ name: "Row", line: 1 }], duplicates: [] }],
  });
  const before = unusedExports(report("src/hooks/dedup-store.ts", ["CLAIM_MS"]));
  const known = Object.fromEntries(before.map((f) => [f.key, f.where]));
  expect(Object.keys(known).sort()).toEqual(["exports CLAIM_MS in dedup-store.ts", "types Row in dedup-store.ts"]);

  expect(fresh(unusedExports(report("src/db/sqlite/dedup-store.ts", ["CLAIM_MS"])), known)).toEqual([]);
  const added = fresh(unusedExports(report("src/db/sqlite/dedup-store.ts", ["CLAIM_MS", "SWEEP_MS"])), known);
  expect(added.map((f) => f.text)).toEqual(["src/db/sqlite/dedup-store.ts:4: exports SWEEP_MS"]);
});
