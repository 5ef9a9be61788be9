import type { GuardInput } from "./types";

/** Headers that carry a credential and no signature scheme signs (unless a guard reads its signature there). */
const CREDENTIALS = new Set(["authorization", "proxy-authorization", "cookie", "set-cookie"]);

/**
 * A refused request as kept for its diagnosis: its headers without Authorization,
 * Proxy-Authorization and cookies (a diagnosis needs none of them, and a leaked session or bearer
 * token opens more than a signature), but with the signature headers, `signature` included when
 * it names one of them (a scheme that signs in Authorization). The body whole: it was read within
 * the channel's max_body.
 */
export function forDiagnosis(r: GuardInput, signature: readonly string[] = []): GuardInput {
  const headers = new Headers();
  r.headers.forEach((value, key) => {
    if (!CREDENTIALS.has(key) || signature.includes(key)) headers.append(key, value);
  });
  return { ...r, headers };
}

/**
 * A refused request as saved with its refusal, so that its diagnosis can be run again after a
 * restart: JSON of the method, query, URL, ip, headers (as forDiagnosis left them) and the body in
 * base64. Never shown by any route: it holds the signature headers. It is a column of the
 * refusal's row, so it goes when the refusal does (the newest REFUSALS_KEPT are kept).
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
