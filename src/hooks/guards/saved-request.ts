import type { GuardInput } from "./types";

/**
 * A refused request as saved with its refusal, so that its diagnosis can be run again after a
 * restart: JSON of the method, query, URL, ip, headers (cookies left out: no signature scheme reads
 * them) and the body in base64. Never shown by any route: it holds the signature headers.
 */
export function saveRequest(r: GuardInput): string {
  const headers: [string, string][] = [];
  r.headers.forEach((value, key) => {
    if (key !== "cookie") headers.push([key, value]);
  });
  return JSON.stringify({ method: r.method, query: r.query, url: r.url, ip: r.ip, headers, body: Buffer.from(r.body).toString("base64") });
}

/** The request saveRequest() wrote, or undefined when the text is not one. */
export function loadRequest(text: string): GuardInput | undefined {
  try {
    const o = JSON.parse(text) as { method: string; query: string; url?: string; ip: string; headers: [string, string][]; body: string };
    return {
      method: o.method,
      query: o.query,
      ...(typeof o.url === "string" ? { url: o.url } : {}),
      ip: o.ip,
      headers: new Headers(o.headers),
      body: new Uint8Array(Buffer.from(o.body, "base64")),
    };
  } catch {
    return undefined;
  }
}
