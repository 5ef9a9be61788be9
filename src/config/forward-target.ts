/**
 * Whether a forward handler's target can ever be sent to: the check of the config file, of the
 * dashboard's forwards API and of the runner, so that a setting every attempt would fail on is
 * refused where it is set. The judge is the request the runner makes: `new Request(url, { headers })`
 * must accept it (a space in the host, a port above 65535, a header name with a space, a value
 * with CR or LF, or a character above U+00FF all make fetch throw), and the URL must be http or
 * https. Messages never quote a header's value (it may be a token) nor the URL (it may hold one).
 *
 * @example forwardTargetProblems("http://exa mple.com/x", {}) // [{ path: "url", message: "the host must not contain spaces" }]
 */
export type TargetProblem = { path: string; message: string };

/** C0 controls and DEL: WHATWG URL parsing drops a tab or newline silently, so a URL holding one is refused. */
const CONTROL = /[\u0000-\u001f\u007f]/;

const BAD_NAME = "not a valid header name: letters, digits and ! # $ % & ' * + - . ^ _ ` | ~ only (no spaces)";
const BAD_VALUE = "not a valid header value: no CR, LF or other control character but tab, and no character above U+00FF";

function urlProblem(url: string): string | undefined {
  if (CONTROL.test(url)) return "must not contain control characters (a tab, CR or LF)";
  if (!/^https?:\/\//i.test(url)) return "must be an http:// or https:// URL";
  try {
    new Request(url);
  } catch {
    const authority = /^https?:\/\/([^/?#]*)/i.exec(url)?.[1] ?? "";
    if (/\s/.test(authority)) return "the host must not contain spaces";
    return "not a valid URL (check the host name, and that the port is at most 65535)";
  }
  return undefined;
}

function accepted(name: string, value: string): boolean {
  try {
    new Headers([[name, value]]);
    return true;
  } catch {
    return false;
  }
}

/**
 * The problems of a forward target, paths relative to the handler (`url`, `headers.<name>`);
 * empty when fetch would send it. `headers` as configured: the `*_env` keys, which the runner never
 * sends, are left out.
 */
export function forwardTargetProblems(url: string, headers: Record<string, string>): TargetProblem[] {
  const problems: TargetProblem[] = [];
  const bad = urlProblem(url);
  if (bad) problems.push({ path: "url", message: bad });
  for (const [name, value] of Object.entries(headers)) {
    // `authorization_env = "VAR"` named where the value came from (the loader resolved it): never sent.
    if (name.endsWith("_env")) continue;
    const at = `headers.${name === "" ? '""' : name}`;
    if (!accepted(name, "")) problems.push({ path: at, message: BAD_NAME });
    else if (!accepted(name, value)) problems.push({ path: at, message: BAD_VALUE });
  }
  // The whole request, as the runner builds it: whatever fetch refuses and the parts above allowed.
  if (problems.length === 0) {
    try {
      new Request(url, { method: "POST", headers: Object.entries(headers).filter(([name]) => !name.endsWith("_env")), body: "" });
    } catch {
      problems.push({ path: "", message: "fetch refuses this URL with these headers" });
    }
  }
  return problems;
}
