import type { HookExtendedWire, HookWire } from "../hooks/model";
import { printable, printableLines } from "../lib/terminal";

/**
 * How `mailroom hooks show` prints a hook: its line, headers, events and the body decoded for
 * reading (JSON indented, text as text, anything else as a hex dump). `hooks body` prints the
 * exact bytes instead.
 */
/** A hook as the management API answers it (the TypeBox model's type: erased, nothing loaded). */
export type WireHook = HookWire;
/** With `include=extensions` (what `hooks ls` and `hooks show` ask for), or from the stream. */
export type ExtendedHook = HookExtendedWire;

/** The body's length in bytes, from its base64 (without decoding it). */
export const bodySize = (hook: Pick<WireHook, "body">): number =>
  Math.floor((hook.body.length * 3) / 4) - (hook.body.endsWith("==") ? 2 : hook.body.endsWith("=") ? 1 : 0);

export const bodyBytes = (hook: Pick<WireHook, "body">): Uint8Array => new Uint8Array(Buffer.from(hook.body, "base64"));

/** Like `xxd`: offset, 16 bytes in hex, and those bytes as ASCII (dots for the rest). */
export function hexDump(bytes: Uint8Array): string {
  const lines: string[] = [];
  for (let at = 0; at < bytes.length; at += 16) {
    const row = bytes.subarray(at, at + 16);
    const hex = [...row].map((b) => b.toString(16).padStart(2, "0")).join(" ");
    const text = [...row].map((b) => (b >= 0x20 && b < 0x7f ? String.fromCharCode(b) : ".")).join("");
    lines.push(`${at.toString(16).padStart(8, "0")}  ${hex.padEnd(47)}  ${text}`);
  }
  return lines.join("\n");
}

/** Text when the bytes are UTF-8 without control characters other than tab and line breaks. */
function asText(bytes: Uint8Array): string | undefined {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
  return /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/.test(text) ? undefined : text;
}

/** The body for reading: indented JSON, text, or a hex dump; says which. */
export function readableBody(bytes: Uint8Array, contentType: string): { as: "empty" | "json" | "text" | "binary"; text: string } {
  if (bytes.length === 0) return { as: "empty", text: "" };
  const text = asText(bytes);
  if (text !== undefined) {
    if (contentType === "application/json" || contentType.endsWith("+json") || /^\s*[[{]/.test(text)) {
      try {
        return { as: "json", text: JSON.stringify(JSON.parse(text), null, 2) };
      } catch {
        // not JSON after all: shown as text
      }
    }
    return { as: "text", text };
  }
  return { as: "binary", text: hexDump(bytes) };
}

export function formatHook(hook: WireHook & Partial<ExtendedHook>): string {
  const bytes = bodyBytes(hook);
  const body = readableBody(bytes, hook.content_type);
  const lines = [
    `${hook.id}  ${hook.status}  channel ${hook.channel}${hook.event_type ? `  event ${printable(hook.event_type)}` : ""}${hook.source_id ? `  sent from ${hook.source_id}` : ""}`,
    `${hook.method} /?${hook.query}  from ${hook.ip || "unknown"}  at ${hook.created_at}${hook.finalized_at ? `  finalized ${hook.finalized_at}` : ""}`,
    "",
    ...Object.entries(hook.headers).map(([k, v]) => printable(`${k}: ${v}`)),
    "",
    `body: ${bytes.length} bytes${body.as === "empty" ? "" : `, shown as ${body.as}`}`,
  ];
  // For reading: a sender's control and format characters as escapes (`hooks body` prints the bytes).
  if (body.text) lines.push(printableLines(body.text));
  if (hook.events.length > 0) {
    lines.push("", "events:");
    for (const e of hook.events) lines.push(`  ${e.created_at}  ${e.kind}${e.actor ? ` by ${e.actor}` : ""}${e.message ? `: ${e.message}` : ""}`);
  }
  return lines.join("\n") + "\n";
}

/** One line per hook for `hooks ls`: the id first (`cut -d' ' -f1`), the event type last ("-" when unknown). */
export function formatHookRow(hook: WireHook & Partial<ExtendedHook>): string {
  return [
    hook.id,
    hook.created_at,
    hook.channel,
    hook.status.padEnd(9),
    hook.method.padEnd(6),
    `${bodySize(hook)} B`,
    printable(hook.content_type || "-"),
    printable(hook.event_type || "-"),
  ].join("  ");
}
