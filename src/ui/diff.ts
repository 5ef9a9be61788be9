/**
 * A structural diff of two JSON values (or two header maps): each leaf path that was added,
 * removed or changed, and, on request, those that stayed the same. Arrays compare by index.
 *
 * @example
 * diffJson({ a: 1, b: [1] }, { a: 2, c: true })
 * // [{ path: "a", kind: "changed", before: 1, after: 2 }, { path: "b[0]", kind: "removed", before: 1 },
 * //  { path: "c", kind: "added", after: true }]
 */
export type Change = { path: string; kind: "added" | "removed" | "changed" | "same"; before?: unknown; after?: unknown };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const key = (path: string, k: string) => (/^[A-Za-z_$][\w$-]*$/.test(k) ? (path ? `${path}.${k}` : k) : `${path}[${JSON.stringify(k)}]`);

export function diffJson(a: unknown, b: unknown, path = "", out: Change[] = []): Change[] {
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.max(a.length, b.length); i++) {
      const p = `${path}[${i}]`;
      if (i >= a.length) out.push({ path: p, kind: "added", after: b[i] });
      else if (i >= b.length) out.push({ path: p, kind: "removed", before: a[i] });
      else diffJson(a[i], b[i], p, out);
    }
  } else if (isObject(a) && isObject(b)) {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const p = key(path, k);
      if (!(k in b)) out.push({ path: p, kind: "removed", before: a[k] });
      else if (!(k in a)) out.push({ path: p, kind: "added", after: b[k] });
      else diffJson(a[k], b[k], p, out);
    }
  } else if (JSON.stringify(a) === JSON.stringify(b)) out.push({ path: path || "(document)", kind: "same", before: a, after: b });
  else out.push({ path: path || "(document)", kind: "changed", before: a, after: b });
  return out;
}
