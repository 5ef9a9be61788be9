import { expect, test } from "bun:test";
import { diffHooks, diffJson } from "../../src/lib/diff";

test("diffJson: added, removed and changed at their paths; nested objects and arrays by index; equal values give nothing", () => {
  expect(diffJson({ a: 1, b: { c: [1, 2], d: "x" } }, { a: 1, b: { c: [1, 2] } })).toEqual([{ path: ["b", "d"], kind: "removed", before: "x" }]);
  expect(diffJson({ b: [1, { e: 1 }] }, { b: [2, { e: 1, f: null }, 3] })).toEqual([
    { path: ["b", "0"], kind: "changed", before: 1, after: 2 },
    { path: ["b", "1", "f"], kind: "added", after: null },
    { path: ["b", "2"], kind: "added", after: 3 },
  ]);
  expect(diffJson({ a: { x: 1 } }, { a: [1] })).toEqual([{ path: ["a"], kind: "changed", before: { x: 1 }, after: [1] }]);
  expect(diffJson({ z: 1, a: 1 }, { a: 2, z: 2 }).map((c) => c.path[0])).toEqual(["a", "z"]);
  expect(diffJson([1, [2]], [1, [2]])).toEqual([]);
  expect(diffJson("a", "a")).toEqual([]);
  expect(diffJson(1, "1")).toEqual([{ path: [], kind: "changed", before: 1, after: "1" }]);
  // A key named __proto__ is an ordinary key (JSON.parse makes it an own property).
  expect(diffJson(JSON.parse('{"__proto__":{"x":1}}'), JSON.parse('{"__proto__":{"x":2}}'))).toEqual([
    { path: ["__proto__", "x"], kind: "changed", before: 1, after: 2 },
  ]);
});

test("diffHooks: the request line, query parameters, headers, and JSON payloads, else whether the bytes are the same", () => {
  const a = {
    method: "POST",
    query: "channel=gh&x=1&t=a&t=b",
    headers: { "content-type": "application/json", "x-github-event": "push", "x-old": "1" },
    content_type: "application/json",
    body: "eyJhIjoxfQ==",
    payload: { a: 1, items: [{ sku: "A" }] },
  };
  const b = {
    ...a,
    method: "PUT",
    query: "channel=gh&t=a",
    headers: { "content-type": "application/json", "x-github-event": "pull_request", "x-new": "2" },
    payload: { a: 1, items: [{ sku: "B" }], extra: true },
  };
  expect(diffHooks(a, b)).toEqual({
    request: [{ path: ["method"], kind: "changed", before: "POST", after: "PUT" }],
    query: [
      { path: ["t"], kind: "changed", before: ["a", "b"], after: "a" },
      { path: ["x"], kind: "removed", before: "1" },
    ],
    headers: [
      { path: ["x-github-event"], kind: "changed", before: "push", after: "pull_request" },
      { path: ["x-new"], kind: "added", after: "2" },
      { path: ["x-old"], kind: "removed", before: "1" },
    ],
    body: {
      kind: "json",
      changes: [
        { path: ["extra"], kind: "added", after: true },
        { path: ["items", "0", "sku"], kind: "changed", before: "A", after: "B" },
      ],
    },
  });
  expect(diffHooks({ ...a, payload: null }, { ...a, payload: null, body: "AAE=" }).body).toEqual({ kind: "bytes", same: false });
  expect(diffHooks({ ...a, payload: null }, { ...a, payload: null }).body).toEqual({ kind: "bytes", same: true });
});
