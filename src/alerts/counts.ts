/**
 * Counts per second, by key ("channel\n" for all, "channel\nX" for an event type or a refusal's
 * reason kind): what rate and refusals rules sum over their window. A storm of hooks costs one
 * increment each, not one object each.
 */
export type Counts = Map<string, { sec: number[]; n: number[] }>;

/** Counts one at `at` (ms) under `key`; drops seconds older than `keepMs` now and then. */
export function add(counts: Counts, key: string, at: number, keepMs: number): void {
  const s = Math.floor(at / 1000);
  let c = counts.get(key);
  if (!c) counts.set(key, (c = { sec: [], n: [] }));
  const last = c.sec.length - 1;
  if (last >= 0 && c.sec[last]! >= s) c.n[last]!++;
  else {
    c.sec.push(s);
    c.n.push(1);
    if (c.sec.length % 64 === 0) drop(c, at - keepMs - 1000);
  }
}

/** How many were counted under `key` at or after `since` (ms), to the second. */
export function sum(counts: Counts, key: string, since: number): number {
  const c = counts.get(key);
  if (!c) return 0;
  // Not dropped here: another rule's window may be longer (add drops past the longest).
  const s = Math.floor(since / 1000);
  let total = 0;
  for (let i = c.sec.length - 1; i >= 0 && c.sec[i]! >= s; i--) total += c.n[i]!;
  return total;
}

function drop(c: { sec: number[]; n: number[] }, before: number): void {
  const s = Math.floor(before / 1000);
  let i = 0;
  while (i < c.sec.length && c.sec[i]! < s) i++;
  if (i > 0) c.sec.splice(0, i), c.n.splice(0, i);
}
