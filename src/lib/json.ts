/**
 * The deepest nesting of arrays and objects a JSON body may have. Far beyond any real webhook or
 * API body, and low enough that nothing downstream (validation messages, serialising a hook's
 * payload) recurses deeply: a body nested thousands of levels deep used to cost seconds of CPU,
 * or a 500, on the one thread that also catches hooks.
 */
export const MAX_JSON_DEPTH = 64;

/** Whether arrays and objects in a JSON text nest deeper than `limit`, counted without parsing. */
export function nestsDeeperThan(text: string, limit: number = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) {
      inString = true;
    } else if (c === 123 /* { */ || c === 91 /* [ */) {
      if (++depth > limit) return true;
    } else if (c === 125 /* } */ || c === 93 /* ] */) {
      depth--;
    }
  }
  return false;
}

/** Why a body has no JSON value: not UTF-8 or not JSON, or nested deeper than MAX_JSON_DEPTH. */
export type JsonProblem = "not_json" | "too_deep";

/** What to tell a client whose request body had a JsonProblem. */
export const BODY_PROBLEM: Record<JsonProblem, string> = {
  not_json: "the request body is not valid JSON",
  too_deep: `the request body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels`,
};

/** The JSON value of UTF-8 bytes, refused before parsing when it nests deeper than MAX_JSON_DEPTH. */
export function parseJsonBytes(bytes: Uint8Array): { ok: true; value: unknown } | { ok: false; why: JsonProblem } {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return { ok: false, why: "not_json" };
  }
  if (nestsDeeperThan(text)) return { ok: false, why: "too_deep" };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, why: "not_json" };
  }
}
