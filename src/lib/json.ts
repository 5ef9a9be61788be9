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
