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

/** The hook as a curl command against this server: the same method, query, headers and exact body. */
export function curlOf(h: { method: string; query: string; headers: Record<string, string>; body: string }, origin: string): string {
  const q = (s: string) => `'${s.replaceAll("'", `'\\''`)}'`;
  const skip = new Set(["host", "content-length", "connection", "accept-encoding"]);
  const parts = [`curl -X ${h.method} ${q(`${origin}/${h.query ? `?${h.query}` : ""}`)}`];
  for (const [k, v] of Object.entries(h.headers)) if (!skip.has(k)) parts.push(`-H ${q(`${k}: ${v}`)}`);
  if (h.body) parts.push(`--data-binary @<(printf %s ${q(h.body)} | base64 -d)`);
  return parts.join(" \\\n  ");
}
