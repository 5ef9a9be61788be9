/**
 * Whether an Accept header admits a JSON answer. No header, `*\/*`, `application/*`,
 * `application/json` and `+json` types do, unless their q is 0.
 *
 * @example acceptsJson("text/html") === false; acceptsJson("text/html, *\/*;q=0.1") === true
 */
export function acceptsJson(header: string | null): boolean {
  if (header === null || header.trim() === "") return true;
  return header.split(",").some((range) => {
    const [type = "", ...params] = range.split(";").map((p) => p.trim().toLowerCase());
    const q = params.find((p) => p.startsWith("q="));
    if (q !== undefined && !(Number(q.slice(2)) > 0)) return false;
    return type === "*/*" || type === "application/*" || type === "application/json" || /^application\/[^/]+\+json$/.test(type);
  });
}
