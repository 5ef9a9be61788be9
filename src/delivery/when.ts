import type { HookMatcher, MatchableHook, WhenChecks } from "../config/checks";
import { decodePayload } from "../hooks/payload";
import { MAX_QUERY_LENGTH } from "../hooks/hook-search";
import { searchDoc } from "../search/document";
import { evaluate, firstContract, isEmpty, parseTerms, QuerySyntaxError, usesPayload, type SearchTerms } from "../search/query";

/**
 * A handler's `when`: a search query (the grammar of `GET /v1/hooks?q=`, search/query.ts), checked
 * and compiled once when the config loads, then matched against one hook in memory by the same
 * document a search builds (search/document.ts): a handler runs on the hooks a search with its
 * `when` would find. Registered with the loader in src/load-config.ts.
 */
export const WHEN_CHECKS: WhenChecks = { problem: whenProblem, compile: compileWhen };

/** What is wrong with `query` as a `when`, saying at which character (1-based); undefined when it parses. */
export function whenProblem(query: string): string | undefined {
  if (query.length > MAX_QUERY_LENGTH) return `must be at most ${MAX_QUERY_LENGTH} characters`;
  let terms: SearchTerms;
  try {
    terms = parseTerms(query);
  } catch (error) {
    if (error instanceof QuerySyntaxError) return `does not parse at character ${error.position + 1}: ${error.message}`;
    throw error;
  }
  if (isEmpty(terms)) return "needs at least one term";
  // A hook's contract check is kept beside it after it is caught: not known yet when this runs.
  const contract = firstContract(terms.node!);
  if (contract) return `does not parse at character ${contract.at + 1}: schema:, is:new-type and is:new-field are not known when a hook is caught`;
  return undefined;
}

/** The matcher of a query whenProblem accepted (throws QuerySyntaxError for one it would refuse). */
export function compileWhen(query: string): HookMatcher {
  const terms = parseTerms(query);
  // The payload is decoded only for a query that has payload terms.
  const node = terms.node!;
  const payload = usesPayload(node);
  return {
    query,
    // The hook as it is caught: pending, no attempts yet; relative times count from now.
    async matches(hook: MatchableHook): Promise<boolean> {
      const doc = searchDoc(hook, payload ? await decodePayload(hook.headers, hook.body) : null);
      return evaluate(
        node,
        doc,
        { id: hook.id, status: hook.status ?? "pending", ip: hook.ip, size: hook.body.byteLength, attempts: hook.attempts, verified: hook.verified },
        Date.now(),
      );
    },
  };
}
