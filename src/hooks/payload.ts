import { parseJsonBytes } from "../lib/json";
import { mediaType } from "./model";

/**
 * Decodes a caught body for display, at read time (never on the catching path).
 * JSON objects come back as they are; url-encoded and multipart forms as fields of strings, or
 * arrays of strings for repeated fields (a file part gives its file name). Anything else, and JSON
 * nested deeper than MAX_JSON_DEPTH: null.
 */
export async function decodePayload(headers: Record<string, string>, body: Uint8Array): Promise<Record<string, unknown> | null> {
  const type = mediaType(headers);
  try {
    if (type === "application/json" || type.endsWith("+json")) {
      // The body is kept as sent either way; a payload too deep to show decoded is null.
      const parsed = parseJsonBytes(body);
      const value = (parsed.ok ? parsed.value : null) as Record<string, unknown> | null;
      return value !== null && typeof value === "object" && !Array.isArray(value) ? value : null;
    }
    if (type === "application/x-www-form-urlencoded") {
      return fields(new URLSearchParams(new TextDecoder().decode(body)));
    }
    if (type === "multipart/form-data") {
      const form = await new Response(body, { headers: { "content-type": headers["content-type"]! } }).formData();
      return fields(form);
    }
  } catch {
    return null;
  }
  return null;
}

/** Object.fromEntries defines own properties, so a field named "__proto__" stays a field. */
function fields(entries: Iterable<[string, unknown]>): Record<string, string | string[]> {
  const out = new Map<string, string | string[]>();
  for (const [key, raw] of entries) {
    const value = typeof raw === "string" ? raw : raw instanceof File ? raw.name : String(raw);
    const prev = out.get(key);
    out.set(key, prev === undefined ? value : Array.isArray(prev) ? [...prev, value] : [prev, value]);
  }
  return Object.fromEntries(out);
}
