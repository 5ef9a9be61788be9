import type { Statement } from "bun:sqlite";
import { ipKey } from "../../search/query";

/**
 * Hooks purged from the index since the last pass, at least, before the vocabulary is pruned: a
 * pass reads every word of it (about 30 µs each at 1,000,000 words, docs/benchmarks.md).
 */
export const PRUNE_AFTER_PURGED = 10_000;

/** An FTS5 phrase of one token: how a search (search-store.ts) and the prune ask the index for a word. */
export const phrase = (s: string) => `"${s.replaceAll('"', '""')}"`;

/**
 * The vocabulary's upkeep (SQLite's index file). Each word of an indexed hook is written once to
 * `search_words` (and its trigrams to `search_word_grams`), each sender's address once to
 * `search_ips`, and nothing removed them: with retention, the index file grew by about 50 bytes a
 * hook caught, forever. A pass reads the words (then the addresses) in order, asks the index
 * whether any hook it holds still has each (the same phrase a search asks), and removes those none
 * has. A search could not find a hook through a word no indexed hook holds, so what a search
 * answers does not change.
 *
 * A pass is due once the purge removed at least `after` hooks' entries since the last pass ended,
 * and at least as many as the index keeps: the vocabulary then holds the words of about twice the
 * kept hooks at most, and a pass, a look-up a word, costs about twice a purged hook's words in
 * look-ups for each purged hook (and a removal for each word removed). The count is kept in the
 * index file (`search_meta`), written with the purge's own deletions, so a restart neither loses
 * it nor skips a pass; a file without it (made before the prune) is due a pass at once.
 * `forget` is called before a word (or address) is removed, in the same transaction: the indexer's
 * cache of words known to be written must not keep it, or a hook indexed later with it would not
 * write it again.
 */
export function createVocabularyPruner(
  q: (text: string) => Statement,
  opts: { after?: number; forget: (words: readonly string[], ips: readonly string[]) => void },
) {
  const after = opts.after ?? PRUNE_AFTER_PURGED;
  const held = q("SELECT 1 FROM search.search_index WHERE search_index MATCH ? LIMIT 1");
  const count = () => (q("SELECT n FROM search.search_meta WHERE name = 'purged'").get() as { n: number } | null)?.n;
  /** The count when the pass under way was found due: what its end takes off. */
  let counted = 0;

  /** Of the next `scan` words (or addresses) above the cursor, those no indexed hook holds, removed; the next cursor. */
  function pass(cursor: string | undefined, scan: number): string | undefined {
    const inIps = cursor?.startsWith("i") ?? false;
    if (!inIps) {
      const from = cursor === undefined ? 0 : Number(cursor.slice(1));
      const rows = q("SELECT id, word FROM search.search_words WHERE id > ? ORDER BY id LIMIT ?").values(from, scan) as [number, string][];
      const gone = rows.filter(([, word]) => held.get(phrase(word)) === null);
      if (gone.length > 0) {
        opts.forget(
          gone.map(([, w]) => w),
          [],
        );
        for (const [id, word] of gone) {
          q("DELETE FROM search.search_words WHERE id = ?").run(id);
          // The trigrams' table keeps no text (content=''): a row is deleted by giving its values back.
          q("INSERT INTO search.search_word_grams (search_word_grams, rowid, word) VALUES ('delete', ?, ?)").run(id, word);
        }
      }
      return rows.length < scan ? "i" : `w${rows[rows.length - 1]![0]}`;
    }
    const rows = (q("SELECT hex FROM search.search_ips WHERE hex > ? ORDER BY hex LIMIT ?").values(cursor!.slice(1), scan) as [string][]).map(([h]) => h);
    const gone = rows.filter((hex) => held.get(phrase(ipKey(hex))) === null);
    if (gone.length > 0) {
      opts.forget([], gone);
      for (const hex of gone) q("DELETE FROM search.search_ips WHERE hex = ?").run(hex);
    }
    if (rows.length === scan) return `i${rows[rows.length - 1]}`;
    // The pass is over: what was purged while it ran stays counted.
    q("INSERT INTO search.search_meta (name, n) VALUES ('purged', 0) ON CONFLICT (name) DO UPDATE SET n = max(0, n - ?)").run(counted);
    return undefined;
  }

  return {
    /** In the purge's transaction: it removed `n` hooks' entries. */
    purged(n: number): void {
      q("INSERT INTO search.search_meta (name, n) VALUES ('purged', ?) ON CONFLICT (name) DO UPDATE SET n = n + excluded.n").run(n);
    },
    /** Whether a pass is due (see above). */
    due(): boolean {
      const n = count();
      if (n !== undefined && n < after) return false;
      const kept = (q("SELECT count(*) AS n FROM search.search_rows").get() as { n: number }).n;
      if (n !== undefined && n < kept) return false;
      counted = n ?? 0;
      return true;
    },
    pass,
  };
}
