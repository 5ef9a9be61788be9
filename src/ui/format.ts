/**
 * One format for sizes and times on every screen: sizes in human units ("1.0 MB"), times relative
 * ("3 s ago", "in 2 min") with the exact local date and time as their title, dates past a week.
 */

const UNITS = ["KB", "MB", "GB", "TB"];

/** Bytes in human units, 1024 to the next: 512 B, 1.0 KB, 12.3 KB, 1.0 MB. */
export function size(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 1024) return `${Math.max(0, Math.round(bytes || 0))} B`;
  let v = bytes;
  let unit = "B";
  for (const u of UNITS) {
    if (v < 1024) break;
    v /= 1024;
    unit = u;
  }
  return `${v < 100 ? v.toFixed(1) : Math.round(v)} ${unit}`;
}

/** An exact count for a title: 1,048,686 bytes. */
export function exactBytes(bytes: number): string {
  return `${bytes.toLocaleString("en")} byte${bytes === 1 ? "" : "s"}`;
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const pad = (n: number) => String(n).padStart(2, "0");

/** The exact local time: 2026-11-26 10:53:52 (and the zone offset), for titles and detail tables. */
export function exact(iso: string | Date): string {
  const d = typeof iso === "string" ? new Date(iso) : iso;
  if (Number.isNaN(d.getTime())) return String(iso);
  const off = -d.getTimezoneOffset();
  const zone = `${off >= 0 ? "+" : "-"}${pad(Math.floor(Math.abs(off) / 60))}:${pad(Math.abs(off) % 60)}`;
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())} ${zone}`;
}

/** A date for when relative time says too little: 26 Nov, or 26 Nov 2025 in another year. */
export function date(d: Date, now: Date): string {
  const day = `${d.getDate()} ${MONTHS[d.getMonth()]}`;
  return d.getFullYear() === now.getFullYear() ? `${day} ${pad(d.getHours())}:${pad(d.getMinutes())}` : `${day} ${d.getFullYear()}`;
}

/** "just now", "3 s ago", "5 min ago", "2 h ago", "3 d ago"; past 7 days the date. Future times read "in ...". */
export function relative(iso: string, now: number = Date.now()): string {
  const d = new Date(iso);
  const t = d.getTime();
  if (Number.isNaN(t)) return iso;
  const s = Math.round((now - t) / 1000);
  const a = Math.abs(s);
  if (a < 1) return "just now";
  let text: string;
  if (a < 60) text = `${a} s`;
  else if (a < 3600) text = `${Math.floor(a / 60)} min`;
  else if (a < 86_400) text = `${Math.floor(a / 3600)} h`;
  else if (a < 7 * 86_400) text = `${Math.floor(a / 86_400)} d`;
  else return date(d, new Date(now));
  return s >= 0 ? `${text} ago` : `in ${text}`;
}

/**
 * Characters that turn text around or hide it: the bidirectional marks, embeddings, overrides and
 * isolates, the zero-width space, the word joiner and the byte order mark. (Zero-width joiners and
 * non-joiners stay: emoji and several scripts need them, and they move nothing.)
 */
const HIDDEN = /[\u061c\u200b\u200e\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff]/g;
const escapeHidden = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;

/**
 * Text a sender chose, shown as text with the characters that hide or turn text around written as
 * \u escapes: a sender cannot hide text or turn what follows around (an unterminated right-to-left
 * override would).
 *
 * @example visible("a\u202eb") === "a\\u202eb"
 */
export function visible(text: string): string {
  return text.replace(HIDDEN, escapeHidden);
}

/**
 * A value as JSON shows it, with visible()'s escapes too: still valid JSON ("" for
 * undefined).
 *
 * @example jsonString("a\u202eb") === '"a\\u202eb"'
 */
export function jsonString(value: unknown): string {
  return visible(JSON.stringify(value) ?? "");
}

/** The page's title: `(3) Mailroom` with 3 unread hooks, `Mailroom` with none. */
export function titleOf(total: number): string {
  return total > 0 ? `(${total > 999 ? "999+" : total}) Mailroom` : "Mailroom";
}
