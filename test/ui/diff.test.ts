import { describe, expect, test } from "bun:test";
import { diffJson } from "../../src/ui/diff";

describe("the dashboard's structural diff", () => {
  test("reports added, removed and changed leaves by path, the same ones as same", () => {
    const a = { id: "evt_1", data: { amount: 2000, tags: ["a", "b"] }, gone: true, "odd key": 1 };
    const b = { id: "evt_2", data: { amount: 2000, tags: ["a"], currency: "usd" }, "odd key": 1 };
    expect(diffJson(a, b).filter((c) => c.kind !== "same")).toEqual([
      { path: "id", kind: "changed", before: "evt_1", after: "evt_2" },
      { path: "data.tags[1]", kind: "removed", before: "b" },
      { path: "data.currency", kind: "added", after: "usd" },
      { path: "gone", kind: "removed", before: true },
    ]);
    expect(
      diffJson(a, b)
        .filter((c) => c.kind === "same")
        .map((c) => c.path),
    ).toEqual(["data.amount", "data.tags[0]", '["odd key"]']);
  });

  test("a value that changes type is one change; equal documents have none", () => {
    expect(diffJson({ x: [1] }, { x: { 0: 1 } })).toEqual([{ path: "x", kind: "changed", before: [1], after: { 0: 1 } }]);
    expect(diffJson([1, { a: null }], [1, { a: null }]).every((c) => c.kind === "same")).toBe(true);
  });
});
