/** What a guard's credentials are replaced with in a stored hook (headers and query). */
export const REDACTED = "[redacted]";

/** The raw query with the values of the named parameters replaced; everything else byte for byte. */
export function redactQuery(query: string, names: readonly string[]): string {
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
      return names.includes(key) ? `${raw}=${REDACTED}` : part;
    })
    .join("&");
}
