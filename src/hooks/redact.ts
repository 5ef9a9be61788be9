/** What a guard's credentials are replaced with in a stored hook (headers and query). */
export const REDACTED = "[redacted]";

/** Header names whose values are credentials whatever the guard (matched on the lower-case name). */
const SECRET_NAME = /^(authorization|proxy-authorization|x-api-key|api-key)$|auth|credential|cookie|token|secret|password|passwd|session|api[-_]?key/;
/** Header names that say they carry a signature (Stripe-Signature, X-Hub-Signature-256, X-Shopify-Hmac-Sha256...). */
const SIGNATURE_NAME = /signature|hmac/;
const MAX_HEADERS = 100;
const MAX_VALUE = 2000;

/**
 * A refused request's headers as listed: cookies left out; credentials (the channel's guards'
 * secret headers, and any name that says it carries one) and signatures (`signature`: the guards'
 * signature headers, and any name that says it is one) replaced by REDACTED. The signature itself
 * is kept only with the request saved for the diagnosis (guards/saved-request.ts), which no answer
 * shows: the diagnosis says what is wrong with it. Bounded in count and length.
 */
export function redactHeaders(headers: Headers, secret: readonly string[] = [], signature: readonly string[] = []): Record<string, string> {
  const out: Record<string, string> = {};
  let n = 0;
  for (const [name, value] of headers) {
    if (name === "cookie" || name === "set-cookie") continue;
    if (++n > MAX_HEADERS) break;
    const hidden = secret.includes(name) || SECRET_NAME.test(name) || signature.includes(name) || SIGNATURE_NAME.test(name);
    out[name] = hidden ? REDACTED : value.length > MAX_VALUE ? `${value.slice(0, MAX_VALUE)}…` : value;
  }
  return out;
}

/** A refused request's query: the named parameters and any whose name says it is a credential redacted. */
export function redactRefusedQuery(query: string, names: readonly string[] = []): string {
  if (query === "") return query;
  return redactQuery(query, names, (key) => SECRET_NAME.test(key.toLowerCase()));
}

/** The raw query with the values of the named parameters replaced; everything else byte for byte. */
export function redactQuery(query: string, names: readonly string[], also?: (key: string) => boolean): string {
  return query
    .split("&")
    .map((part) => {
      const eq = part.indexOf("=");
      const raw = eq < 0 ? part : part.slice(0, eq);
      let key = raw;
      try {
        key = decodeURIComponent(raw.replaceAll("+", " "));
      } catch {
        // a malformed escape: compare the raw text
      }
      return names.includes(key) || also?.(key) ? `${raw}=${REDACTED}` : part;
    })
    .join("&");
}
