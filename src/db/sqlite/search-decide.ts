import type { QueryNode } from "../../search/query";

/**
 * A query's words (each once), and those under a NOT: the words a count can judge without a
 * hook's document, when they are well-formed and without U+FEFF (search-store.ts inBody).
 */
export function wordLeaves(node: QueryNode): { all: string[]; negated: string[] } {
  const all = new Set<string>();
  const negated = new Set<string>();
  const walk = (n: QueryNode, under: boolean): void => {
    if (n.kind === "and" || n.kind === "or") for (const item of n.items) walk(item, under);
    else if (n.kind === "not") walk(n.item, true);
    else if (n.kind === "word" && n.word.isWellFormed() && !n.word.includes("\ufeff")) {
      all.add(n.word);
      if (under) negated.add(n.word);
    }
  };
  walk(node, false);
  return { all: [...all], negated: [...negated] };
}

/**
 * A query's answer for one hook when what is known of its words decides it (`word`: true when its
 * document holds the word, false when it does not, undefined when unknown), in three-valued logic:
 * undefined when a word, field term or hook term left unknown could change it. A false answer
 * holds whatever else is asked beside the query.
 *
 * @example decide(parseQuery("tag:big -refund"), () => true) // false: -refund is false
 */
export function decide(node: QueryNode, word: (w: string) => boolean | undefined): boolean | undefined {
  switch (node.kind) {
    case "and": {
      let all: boolean | undefined = true;
      for (const item of node.items) {
        const v = decide(item, word);
        if (v === false) return false;
        if (v === undefined) all = undefined;
      }
      return all;
    }
    case "or": {
      let any: boolean | undefined = false;
      for (const item of node.items) {
        const v = decide(item, word);
        if (v === true) return true;
        if (v === undefined) any = undefined;
      }
      return any;
    }
    case "not": {
      const v = decide(node.item, word);
      return v === undefined ? undefined : !v;
    }
    case "word":
      return word(node.word);
    default:
      return undefined;
  }
}
