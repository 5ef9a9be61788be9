/**
 * "Did you mean": the closest of the known names to what was typed, by edit distance (insertions,
 * deletions, substitutions and swaps of two neighbours each count one).
 */

/** The optimal string alignment distance between `a` and `b`. */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i]);
  for (let j = 1; j <= b.length; j++) rows[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = d;
    }
  }
  return rows[a.length]![b.length]!;
}

/**
 * The known name closest to `typed`, if it is close enough to be a typo (at most a third of its
 * length, and at most 3, edits away) or if `typed` is the start of exactly one name.
 *
 *   suggest("hoks", ["hooks", "tail"]) // "hooks"
 */
export function suggest(typed: string, known: readonly string[]): string | undefined {
  const lower = typed.toLowerCase();
  let best: { name: string; d: number } | undefined;
  for (const name of known) {
    const d = editDistance(lower, name.toLowerCase());
    if (!best || d < best.d) best = { name, d };
  }
  if (best && best.d <= Math.min(3, Math.max(1, Math.floor(best.name.length / 3)))) return best.name;
  const prefixed = lower.length >= 2 ? known.filter((name) => name.startsWith(lower)) : [];
  return prefixed.length === 1 ? prefixed[0] : undefined;
}

/** ` (did you mean X?)` or nothing. */
export function didYouMean(typed: string, known: readonly string[]): string {
  const name = suggest(typed, known);
  return name === undefined ? "" : ` (did you mean ${name}?)`;
}
