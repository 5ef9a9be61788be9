import type { Database, Statement } from "bun:sqlite";

/**
 * Prepares each distinct SQL text once and reuses it.
 *
 * @example const q = statementCache(db.$client); q("SELECT 1").get();
 */
export function statementCache(sql: Database): (text: string) => Statement {
  const cache = new Map<string, Statement>();
  return (text) => {
    let s = cache.get(text);
    if (!s) cache.set(text, (s = sql.prepare(text)));
    return s;
  };
}
