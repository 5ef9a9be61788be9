import { isHeaderName, isHeaderValue, isMethodToken } from "../lib/http-syntax";
import { shellCommand } from "../lib/shell";

/** How a hook's body is shown: formatted JSON, form fields, text, or hex for binary. Never as HTML. */
export type BodyView = { kind: "json" | "form" | "text" | "hex" | "empty"; text: string; fields?: [string, string][] };

export function bytesOf(base64: string): Uint8Array<ArrayBuffer> {
  const bin = atob(base64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

export function viewBody(bytes: Uint8Array, contentType: string): BodyView {
  if (bytes.length === 0) return { kind: "empty", text: "" };
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return { kind: "hex", text: hex(bytes) };
  }
  if (contentType.includes("json") || /^\s*[[{]/.test(text)) {
    try {
      return { kind: "json", text: JSON.stringify(JSON.parse(text), null, 2) };
    } catch {
      // not JSON after all: shown as text
    }
  }
  if (contentType === "application/x-www-form-urlencoded") return { kind: "form", text, fields: [...new URLSearchParams(text)] };
  return { kind: "text", text };
}

/** A hex dump covers at most this many bytes of a body (the whole body is in Download). */
export const HEX_BYTES = 64 * 1024;

function hex(bytes: Uint8Array): string {
  const lines: string[] = [];
  for (let i = 0; i < Math.min(bytes.length, HEX_BYTES); i += 16) {
    const row = [...bytes.subarray(i, i + 16)];
    lines.push(
      `${i.toString(16).padStart(8, "0")}  ${row
        .map((b) => b.toString(16).padStart(2, "0"))
        .join(" ")
        .padEnd(48)}  ${row.map((b) => (b >= 32 && b < 127 ? String.fromCharCode(b) : ".")).join("")}`,
    );
  }
  return lines.join("\n");
}

/** Text of the body when it is UTF-8, else undefined (binary). */
export function textOf(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** Headers a replay leaves to curl (or that would be wrong for another host). */
export const HOP_HEADERS = new Set(["host", "content-length", "connection", "accept-encoding", "transfer-encoding"]);

/**
 * What a pasted command cannot carry as it is: control characters but tab and LF (a terminal acts
 * on them when pasted: CR ends the line, ^U erases it) and C1 controls (U+009B is a terminal's CSI).
 */
const UNPASTEABLE = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;

/** The URL's arguments: controls and spaces percent-encoded (as a sender's were), and `--url` before one that would read as an option. */
function urlArgs(url: string): string[] {
  const clean = url.replace(/[\x00-\x20\x7f-\x9f]/g, (c) => encodeURIComponent(c));
  return clean.startsWith("-") ? ["--url", clean] : [clean];
}

/**
 * The hook as a curl command aimed at `url`: the same method, headers and body, every argument
 * quoted for a POSIX shell (lib/shell.ts), so that pasting it runs curl and nothing else. A text
 * body is written as it is (one quoted argument, readable); a binary one, or one a paste would
 * change (a CR, another control character), is read from the file Download saves. A method or
 * header no HTTP parser would accept (only an import of an older version could have stored one)
 * is left out.
 */
export function curlOf(h: { id: string; method: string; headers: Record<string, string> }, url: string, bytes: Uint8Array): string {
  const lines = [isMethodToken(h.method) ? ["curl", "-X", h.method, ...urlArgs(url)] : ["curl", ...urlArgs(url)]];
  for (const [k, v] of Object.entries(h.headers)) {
    if (!HOP_HEADERS.has(k) && isHeaderName(k) && isHeaderValue(v) && !UNPASTEABLE.test(v)) lines.push(["-H", `${k}: ${v}`]);
  }
  if (bytes.length > 0) {
    const text = textOf(bytes);
    lines.push(text === undefined || UNPASTEABLE.test(text) ? ["--data-binary", `@${h.id}.body`] : ["--data-raw", text]);
  }
  return shellCommand(lines);
}

/** The first hook to send, to `base` (this server) and `channel` (else demo), quoted as curlOf's. */
export function firstCurlOf(base: string, channel?: string): string {
  return shellCommand([
    ["curl", "-X", "POST", ...urlArgs(`${base}/?channel=${encodeURIComponent(channel || "demo")}`)],
    ["-H", "content-type: application/json"],
    ["-d", '{"type":"order.created","order":{"id":42,"total":"19.90"}}'],
  ]);
}

/** "Name: value" lines to headers; throws on a line without a colon. */
export function headersOf(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split("\n").map((l) => l.trim())) {
    if (!line) continue;
    const colon = line.indexOf(":");
    if (colon < 1) throw new Error(`"${line}" is not "Name: value"`);
    out[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return out;
}
