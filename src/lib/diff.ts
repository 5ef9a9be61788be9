/**
 * A structural diff of two hooks, and of any two JSON values: what was added, removed or changed,
 * each at its path. Pure and without dependencies: `mailroom hooks diff` and the dashboard's compare
 * view both use it.
 *
 * @example diffJson({ a: 1, b: [1] }, { a: 2, b: [1, 2], c: null })
 *   // [{ path: ["a"], kind: "changed", before: 1, after: 2 },
 *   //  { path: ["b", "1"], kind: "added", after: 2 }, { path: ["c"], kind: "added", after: null }]
 */
export type DiffChange = { path: string[]; kind: "added" | "removed" | "changed"; before?: unknown; after?: unknown };

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/** Changes from `a` to `b`, depth first, object keys in sorted order, array items by index. */
export function diffJson(a: unknown, b: unknown, path: string[] = [], out: DiffChange[] = []): DiffChange[] {
  if (isObject(a) && isObject(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
    for (const k of keys) {
      const inA = Object.hasOwn(a, k);
      const inB = Object.hasOwn(b, k);
      if (inA && inB) diffJson(a[k], b[k], [...path, k], out);
      else if (inA) out.push({ path: [...path, k], kind: "removed", before: a[k] });
      else out.push({ path: [...path, k], kind: "added", after: b[k] });
    }
    return out;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    const n = Math.max(a.length, b.length);
    for (let i = 0; i < n; i++) {
      if (i >= b.length) out.push({ path: [...path, String(i)], kind: "removed", before: a[i] });
      else if (i >= a.length) out.push({ path: [...path, String(i)], kind: "added", after: b[i] });
      else diffJson(a[i], b[i], [...path, String(i)], out);
    }
    return out;
  }
  if (a !== b && !(Number.isNaN(a) && Number.isNaN(b))) out.push({ path, kind: "changed", before: a, after: b });
  return out;
}

/** What the diff reads of a hook: the Hook resource's fields (body as base64, payload decoded). */
export type DiffableHook = {
  method: string;
  query: string;
  headers: Record<string, string>;
  content_type?: string;
  body: string;
  payload?: Record<string, unknown> | null;
};

export type HookDiff = {
  /** Method, content type and the like: one change each when they differ. */
  request: DiffChange[];
  /** Query parameters by name (a repeated one as a list). */
  query: DiffChange[];
  headers: DiffChange[];
  /** The decoded payloads' changes when both have one; else whether the exact bytes are the same. */
  body: { kind: "json"; changes: DiffChange[] } | { kind: "bytes"; same: boolean };
};

function queryObject(query: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of new URLSearchParams(query)) {
    const prev = out[k];
    out[k] = prev === undefined ? v : Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  return out;
}

/** The structural diff of two hooks, from `a` to `b`. */
export function diffHooks(a: DiffableHook, b: DiffableHook): HookDiff {
  const request = diffJson({ method: a.method, content_type: a.content_type ?? "" }, { method: b.method, content_type: b.content_type ?? "" });
  const body: HookDiff["body"] =
    a.payload && b.payload ? { kind: "json", changes: diffJson(a.payload, b.payload) } : { kind: "bytes", same: a.body === b.body };
  return { request, query: diffJson(queryObject(a.query), queryObject(b.query)), headers: diffJson(a.headers, b.headers), body };
}
