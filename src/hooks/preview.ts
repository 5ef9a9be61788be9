/**
 * A body's one-line preview for lists (summaries' `preview`): its first PREVIEW_CHARS characters as
 * text, whitespace collapsed, control characters, the characters that hide or turn text around
 * (bidirectional marks and overrides, zero-width spaces) and invalid UTF-8 shown as U+FFFD, or "" for a
 * body that is not text (a NUL byte, or more than a tenth of it unreadable). Made from the body's
 * first PREVIEW_BYTES bytes only, which the stores read with substr/substring, never the body.
 *
 * @example bodyPreview(new TextEncoder().encode('{\n  "a": 1\n}')) === '{ "a": 1 }'
 */
export const PREVIEW_BYTES = 400;
export const PREVIEW_CHARS = 100;

const decoder = new TextDecoder();
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u061c\u200b\u200e\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff]/g;
/** The control characters alone: with bad UTF-8, what makes a body unreadable (format characters are text's, Hebrew and Arabic use marks often). */
const UNREADABLE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\uFFFD]/g;

export function bodyPreview(head: Uint8Array): string {
  if (head.byteLength === 0 || head.includes(0)) return "";
  let text = decoder.decode(head.byteLength > PREVIEW_BYTES ? head.subarray(0, PREVIEW_BYTES) : head);
  // A character cut by the byte limit is not the sender's mistake.
  if (head.byteLength >= PREVIEW_BYTES) text = text.replace(/\uFFFD{1,3}$/, "");
  const unreadable = text.match(UNREADABLE)?.length ?? 0;
  if (unreadable * 10 > text.length) return "";
  const line = text.replace(CONTROL, "\uFFFD").replace(/\s+/g, " ").trim();
  const chars = [...line];
  return chars.length > PREVIEW_CHARS ? chars.slice(0, PREVIEW_CHARS).join("") : line;
}
