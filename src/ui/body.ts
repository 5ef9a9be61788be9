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
 * The hook as a curl command aimed at `url`: the same method, headers and body. A text body is
 * written as it is (one quoted argument, readable); a binary one is read from the file Download saves.
 */
export function curlOf(h: { id: string; method: string; headers: Record<string, string> }, url: string, bytes: Uint8Array): string {
  const q = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;
  const parts = [`curl -X ${h.method} ${q(url)}`];
  for (const [k, v] of Object.entries(h.headers)) if (!HOP_HEADERS.has(k)) parts.push(`-H ${q(`${k}: ${v}`)}`);
  if (bytes.length > 0) {
    const text = textOf(bytes);
    parts.push(text === undefined ? `--data-binary @${h.id}.body` : `--data-raw ${q(text)}`);
  }
  return parts.join(" \\\n  ");
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
