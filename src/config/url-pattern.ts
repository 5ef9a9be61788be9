/**
 * The URL patterns of `[dashboard] member_send_to`: where a dashboard member may send a hook
 * (replay, edit and send to a URL). A pattern is `scheme://host[:port][/path]` with `*` wildcards:
 * in the host, any part of a host name ("*.example.com"); as the port, any port; in the path, any
 * characters. Without a port, the scheme's default port; without a path, any path and query; with
 * a path, the URL's path must match it (and its query too when the pattern has a `?`).
 *
 * A URL is matched by its parts as the URL parser reads them, never as text, so that
 * `http://localhost:@10.0.0.1/` (user "localhost", host 10.0.0.1) does not pass for localhost, and
 * a URL with a user or password never matches.
 *
 * @example
 * urlPatternMatches("http://localhost:*", "http://localhost:3000/hooks") // true
 * urlPatternMatches("http://localhost:*", "http://localhost:@10.0.0.1/") // false
 * urlPatternMatches("https://*.example.com/hooks/*", "https://app.example.com/hooks/a") // true
 */

const SHAPE = /^(https?):\/\/(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.*-]+)(?::(\*|\d{1,5}))?(\/[^\s#]*)?$/;

/** What a pattern must look like, in words (check-config says it so). */
export const URL_PATTERN_RULE =
  'must be "http://host[:port][/path]" or "https://...", with * for any part of the host, any port or any path (as "http://localhost:*")';

type Parsed = { scheme: string; host: RegExp; port: string; path?: RegExp; withQuery: boolean };

const escapeRegex = (s: string) => s.replace(/[.+?^${}()|[\]\\/]/g, "\\$&");

function parse(pattern: string): Parsed | undefined {
  const m = SHAPE.exec(pattern);
  if (!m) return undefined;
  const [, scheme, host, port, path] = m;
  if (port !== undefined && port !== "*" && Number(port) > 65535) return undefined;
  const lower = scheme!.toLowerCase();
  return {
    scheme: lower,
    host: new RegExp(`^${escapeRegex(host!.toLowerCase()).replaceAll("*", "[a-z0-9.-]*")}$`),
    port: port ?? (lower === "https" ? "443" : "80"),
    path: path === undefined ? undefined : new RegExp(`^${escapeRegex(path).replaceAll("*", ".*")}$`),
    withQuery: path?.includes("?") ?? false,
  };
}

/** Why `pattern` is not one, or undefined. */
export function urlPatternProblem(pattern: string): string | undefined {
  return parse(pattern) ? undefined : URL_PATTERN_RULE;
}

/** A pattern parsed once: `matches` tells whether a URL matches it (a pattern that is not one matches nothing). */
export type UrlPattern = { pattern: string; matches: (url: string) => boolean };

export function compileUrlPattern(pattern: string): UrlPattern {
  const p = parse(pattern);
  return { pattern, matches: (url) => matchesParsed(p, url) };
}

/** Whether `url` matches `pattern` (a pattern that is not one matches nothing). */
export function urlPatternMatches(pattern: string, url: string): boolean {
  return matchesParsed(parse(pattern), url);
}

function matchesParsed(p: Parsed | undefined, url: string): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  if (!p || u.username !== "" || u.password !== "") return false;
  if (u.protocol !== `${p.scheme}:` || !p.host.test(u.hostname)) return false;
  const port = u.port || (u.protocol === "https:" ? "443" : "80");
  if (p.port !== "*" && p.port !== port) return false;
  return p.path === undefined || p.path.test(p.withQuery ? u.pathname + u.search : u.pathname);
}
