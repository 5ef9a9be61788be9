import type { GuardInput } from "../hooks/guards";

/**
 * The candidate originals of a refused request: what the sender may have signed before something
 * changed it. Each names the change it undoes.
 */

type BodyVariant = { body: Uint8Array; change: string; headers?: Headers };

const enc = (s: string) => new TextEncoder().encode(s);

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v && typeof v === "object") {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) out[k] = sortKeys((v as Record<string, unknown>)[k]);
    return out;
  }
  return v;
}

const escapeUnicode = (s: string) => s.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
const escapeSlashes = (s: string) => s.replace(/\//g, "\\/");

export function* bodyVariants(input: GuardInput): Generator<BodyVariant> {
  const text = new TextDecoder().decode(input.body);
  if (text.endsWith("\n")) yield { body: enc(text.replace(/\r?\n$/, "")), change: "with its trailing newline removed (one was added)" };
  else yield { body: enc(`${text}\n`), change: "with a trailing newline (it was removed)" };
  let value: unknown;
  let json = false;
  try {
    value = JSON.parse(text);
    json = true;
  } catch {
    // Not JSON: the form variants below.
  }
  if (json) {
    const forms: [string, string][] = [
      ["compact (whitespace was added: re-serialised pretty-printed)", JSON.stringify(value)],
      ["pretty-printed with 2 spaces (its whitespace was removed)", JSON.stringify(value, null, 2)],
      ["pretty-printed with 4 spaces (its whitespace was removed)", JSON.stringify(value, null, 4)],
      ["pretty-printed with tabs (its whitespace was removed)", JSON.stringify(value, null, "\t")],
      ["compact with unicode escaped as \\uXXXX (escapes were changed)", escapeUnicode(JSON.stringify(value))],
      ["compact with slashes escaped as \\/ (escapes were changed)", escapeSlashes(JSON.stringify(value))],
      ["compact with both unicode and slashes escaped (escapes were changed)", escapeSlashes(escapeUnicode(JSON.stringify(value)))],
      ["pretty-printed with 2 spaces and a trailing newline", `${JSON.stringify(value, null, 2)}\n`],
    ];
    for (const [change, body] of forms) if (body !== text) yield { body: enc(body), change };
    // Keys reordered: the sender's order is unknown, sorted is what re-serialisers do most.
    const sorted = sortKeys(value);
    for (const [change, body] of [
      ["with its keys in another order (keys were reordered, sorted here)", JSON.stringify(sorted)],
      ["pretty-printed with its keys in another order (keys were reordered)", JSON.stringify(sorted, null, 2)],
    ] as const)
      if (body !== text) yield { body: enc(body), change };
    return;
  }
  if (/^[^=&\s]+=[^&]*(&[^=&\s]+=[^&]*)*$/.test(text)) {
    const params = new URLSearchParams(text);
    const entries = [...params];
    const sorted = [...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const encode = (list: [string, string][], space: "+" | "%20") =>
      list.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`.replace(/%20/g, space)).join("&");
    for (const [change, body] of [
      ["form-encoded with its fields sorted (the fields were re-ordered)", encode(sorted, "+")],
      ["form-encoded with spaces as %20 (it was re-encoded)", encode(entries, "%20")],
      ["form-encoded with spaces as + (it was re-encoded)", encode(entries, "+")],
    ] as const)
      if (body !== text) yield { body: enc(body), change };
  }
}

/** URLs the sender may have signed: from Host and X-Forwarded-*, with the slash and scheme toggled. */
export function* urlVariants(input: GuardInput, publicUrl: string | undefined): Generator<{ url: string; why: string }> {
  const received = input.url ?? "";
  let path = "/";
  try {
    const u = new URL(received);
    path = u.pathname + u.search;
  } catch {
    return;
  }
  const h = input.headers;
  const host = h.get("host") ?? undefined;
  const fHost = h.get("x-forwarded-host")?.split(",")[0]?.trim();
  const fProto = h.get("x-forwarded-proto")?.split(",")[0]?.trim();
  const origins: [string, string][] = [];
  if (fHost) origins.push([`${fProto ?? "https"}://${fHost}`, "the X-Forwarded-Host URL"]);
  if (host) {
    origins.push([`${fProto ?? "https"}://${host}`, "the Host header's URL"]);
    origins.push([`http://${host}`, "the Host header's URL over http"]);
    origins.push([`https://${host}`, "the Host header's URL over https"]);
  }
  if (publicUrl) {
    const base = publicUrl;
    origins.push([base.startsWith("https:") ? base.replace(/^https:/, "http:") : base.replace(/^http:/, "https:"), "public_url with the other scheme"]);
    origins.push([base, "public_url"]);
  }
  const toggled = (p: string) => {
    const [pathname, search = ""] = p.split(/(?=\?)/);
    const q = search;
    return (pathname!.endsWith("/") ? pathname!.slice(0, -1) : `${pathname}/`) + q;
  };
  const seen = new Set<string>();
  for (const [origin, why] of origins) {
    for (const [p, w] of [
      [path, why],
      [toggled(path), `${why}, trailing slash ${path.split("?")[0]!.endsWith("/") ? "removed" : "added"}`],
    ] as const) {
      const url = origin + p;
      if (seen.has(url)) continue;
      seen.add(url);
      yield { url, why: w };
    }
  }
}

/** Headers with every signature-looking value rewritten from hex to base64 or back. */
export function* encodingVariants(headers: Headers, expected: string): Generator<{ headers: Headers; written: string }> {
  const rewrite = (from: RegExp, convert: (s: string) => string | undefined) => {
    const out = new Headers();
    let changed = false;
    headers.forEach((value, name) => {
      const v = value.replace(from, (m) => {
        const c = convert(m);
        if (c === undefined) return m;
        changed = true;
        return c;
      });
      out.set(name, v);
    });
    return changed ? out : undefined;
  };
  if (expected === "hex") {
    const h = rewrite(/[A-Za-z0-9+/_-]{27,}={0,2}/g, (m) => {
      if (/^[0-9a-fA-F]+$/.test(m)) return undefined;
      const b = Buffer.from(m.replace(/-/g, "+").replace(/_/g, "/"), "base64");
      return b.length >= 20 ? b.toString("hex") : undefined;
    });
    if (h) yield { headers: h, written: "base64" };
  } else {
    const h = rewrite(/[0-9a-fA-F]{40,}/g, (m) => {
      const b = Buffer.from(m, "hex").toString("base64");
      return expected === "base64url" ? b.replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "") : b;
    });
    if (h) yield { headers: h, written: "hex" };
  }
}
