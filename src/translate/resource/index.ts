import { htmlSegments } from "./html";
import { jsonSegments } from "./json";
import { stringsSegments } from "./strings";
import type { Segment } from "./types";

export { ResourceError, type Segment } from "./types";

/** Resource types by revision: A adds text/plain. A plain `text` field is read as text/plain. */
export const RESOURCE_TYPES = {
  A: ["text/plain", "text/html", "text/x-objcstrings", "application/json"],
  B: ["text/html", "text/x-objcstrings", "application/json"],
} as const;
export type ResourceType = (typeof RESOURCE_TYPES.A)[number];

/**
 * The translatable pieces of a resource. Throws ResourceError when the data cannot be read as
 * its type (JSON and .strings; HTML and plain text always read).
 */
export function segmentsOf(type: ResourceType, data: string): Segment[] {
  switch (type) {
    case "text/plain":
      return [{ start: 0, end: data.length, text: data }];
    case "text/html":
      return htmlSegments(data);
    case "application/json":
      return jsonSegments(data);
    case "text/x-objcstrings":
      return stringsSegments(data);
  }
}

/** Whitespace runs count as one character, leading and trailing whitespace not at all. */
const normalize = (text: string) => text.replace(/\s+/gu, " ").trim();

/** Counts Unicode code points, so "é" and "😀" are one character each. */
const codePoints = (text: string) => {
  let n = 0;
  for (const _ of text) n++;
  return n;
};

/**
 * The units counted: HTML text nodes are one flow of text (so "Hello <b>world</b>" keeps its
 * space), while JSON and .strings values are separate strings.
 */
function units(type: ResourceType, segments: readonly Segment[]): string[] {
  const texts = type === "text/html" ? [segments.map((s) => s.text).join("")] : segments.map((s) => s.text);
  return texts.map(normalize).filter(Boolean);
}

/**
 * The billable characters of a resource: the code points of its translatable text, with
 * whitespace normalized in each unit.
 *
 * @example volumeOf("text/html", segmentsOf("text/html", "<p class='x'>Hi  <b>there</b></p>")) === 8
 */
export function volumeOf(type: ResourceType, segments: readonly Segment[]): number {
  let n = 0;
  for (const u of units(type, segments)) n += codePoints(u);
  return n;
}

/** The first `max` characters of the translatable text, for order summaries. */
export function snippetOf(type: ResourceType, segments: readonly Segment[], max = 100): string {
  const text = units(type, segments).join(" ");
  const chars = Array.from(text);
  return chars.length <= max ? text : chars.slice(0, max - 1).join("") + "…";
}

/**
 * The simulator's deterministic pseudo-translation: every non-blank segment gets a `[<target>] `
 * prefix where it stands, so the resource keeps its structure and stays valid.
 *
 * @example pseudoTranslate("application/json", '{"k":"Hi"}', "is") === '{"k":"[is] Hi"}'
 */
export function pseudoTranslate(type: ResourceType, data: string, target: string): string {
  let out = "";
  let at = 0;
  for (const s of segmentsOf(type, data)) {
    if (!normalize(s.text)) continue;
    const raw = data.slice(s.start, s.end);
    const lead = /^\s*/.exec(raw)![0];
    out += data.slice(at, s.start) + lead + `[${target}] ` + raw.slice(lead.length);
    at = s.end;
  }
  return out + data.slice(at);
}
