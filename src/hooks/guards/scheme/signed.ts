import { GuardConfigError } from "../config-error";
import type { GuardInput } from "../types";
import type { SignedPiece } from "./types";

const HEADER = /^header:([A-Za-z0-9!#$%&'*+.^_`|~-]+)$/;
const JSON_PATH = /^json:([A-Za-z0-9_$-]+(?:\.[A-Za-z0-9_$-]+)*)$/;
const SIMPLE = new Set(["body", "timestamp", "method", "url", "path", "query", "form"]);

/**
 * Compiles a `signed` template ("{timestamp}.{body}"). Throws GuardConfigError (key "signed") for
 * an unknown placeholder.
 */
export function compileSigned(template: string): SignedPiece[] {
  const pieces: SignedPiece[] = [];
  for (const part of template.split(/(\{[^{}]*\})/)) {
    if (part === "") continue;
    if (!part.startsWith("{") || !part.endsWith("}")) {
      pieces.push({ kind: "text", text: part });
      continue;
    }
    const field = part.slice(1, -1);
    const header = HEADER.exec(field);
    const json = JSON_PATH.exec(field);
    if (SIMPLE.has(field)) pieces.push({ kind: field } as SignedPiece);
    else if (header) pieces.push({ kind: "header", name: header[1]!.toLowerCase() });
    else if (json) pieces.push({ kind: "json", path: json[1]! });
    else
      throw new GuardConfigError(
        "signed",
        `unknown placeholder ${part}; use {body}, {timestamp}, {method}, {url}, {path}, {query}, {form}, {header:NAME}, {json:PATH}`,
      );
  }
  return pieces;
}

/** Words for what a template signs, for refusal reasons: "timestamp and body". */
export function describeSigned(pieces: readonly SignedPiece[]): string {
  const words: string[] = [];
  for (const p of pieces) {
    const word =
      p.kind === "text"
        ? undefined
        : p.kind === "header"
          ? `${p.name} header`
          : p.kind === "json"
            ? `body field ${p.path}`
            : p.kind === "form"
              ? "form fields"
              : p.kind === "url"
                ? "URL"
                : p.kind;
    if (word && !words.includes(word)) words.push(word);
  }
  return words.length <= 1 ? (words[0] ?? "signed content") : `${words.slice(0, -1).join(", ")} and ${words.at(-1)}`;
}

/** What a request offers the pieces: the request, its public URL, its timestamp, its body parsed when needed. */
export type SignedContext = {
  input: Pick<GuardInput, "method" | "query" | "headers" | "body">;
  url: string;
  timestamp?: string;
  /** The header name to read for one the template names (Svix's `svix-id` for `webhook-id`). */
  lookup?: (name: string) => string;
  /** The body as JSON, parsed at most once; undefined when it is not a JSON object. */
  json(): Record<string, unknown> | undefined;
};

/** A string field of a JSON object by dotted path; numbers are given as their text. */
export function jsonField(json: Record<string, unknown> | undefined, path: string): string | undefined {
  let at: unknown = json;
  for (const key of path.split(".")) {
    if (at === null || typeof at !== "object") return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return typeof at === "string" ? at : typeof at === "number" ? String(at) : undefined;
}

/** Twilio's form string: every field's name then value, sorted by name (repeated names by value). */
export function sortedForm(body: Uint8Array): string {
  const params = new URLSearchParams(Buffer.from(body).toString("utf8"));
  const pairs = [...params].sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0));
  return pairs.map(([k, v]) => k + v).join("");
}

export function isForm(headers: Headers): boolean {
  return (headers.get("content-type") ?? "").toLowerCase().startsWith("application/x-www-form-urlencoded");
}

/** The signed content's parts (text as UTF-8, the body as its bytes); undefined for a piece that is absent. */
export function signedParts(pieces: readonly SignedPiece[], c: SignedContext): (string | Uint8Array | undefined)[] {
  const path = () => {
    const u = c.url.indexOf("://");
    const slash = c.url.indexOf("/", u < 0 ? 0 : u + 3);
    const q = c.url.indexOf("?");
    return slash < 0 ? "/" : c.url.slice(slash, q < 0 ? undefined : q);
  };
  return pieces.map((p) => {
    switch (p.kind) {
      case "text":
        return p.text;
      case "body":
        return c.input.body;
      case "timestamp":
        return c.timestamp;
      case "method":
        return c.input.method;
      case "url":
        return c.url;
      case "path":
        return path();
      case "query":
        return c.input.query;
      case "form":
        return isForm(c.input.headers) ? sortedForm(c.input.body) : "";
      case "header":
        return c.input.headers.get(c.lookup ? c.lookup(p.name) : p.name)?.trim() || undefined;
      case "json":
        return jsonField(c.json(), p.path);
    }
  });
}
