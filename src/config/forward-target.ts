import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";

/**
 * Whether a forward handler's target can ever be sent to: the check of the config file, of the
 * dashboard's forwards API and of the runner, so that a setting every attempt would fail on is
 * refused where it is set. The judge is the request the runner makes: `new Request(url, { headers })`
 * must accept it (a space in the host, a port above 65535, a header name with a space, a value
 * with CR or LF, or a character above U+00FF all make fetch throw), and the URL must be http or
 * https. Messages never quote a header's value (it may be a token) nor the URL (it may hold one).
 * Where it may be sent is judged below it (outboundProblem): never to a link-local address or a
 * cloud metadata service unless `[server] allow_link_local`, for every request a hook makes.
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

/**
 * Link-local addresses: where cloud metadata services answer (169.254.169.254 hands out a cloud
 * machine's credentials), also as an IPv4-mapped or NAT64 IPv6 address. Plus the metadata services'
 * other addresses: AWS's over IPv6 (fd00:ec2::254) and Alibaba Cloud's (100.100.100.200).
 */
const LINK_LOCAL = new BlockList();
LINK_LOCAL.addSubnet("169.254.0.0", 16, "ipv4");
LINK_LOCAL.addSubnet("fe80::", 10, "ipv6");
LINK_LOCAL.addSubnet("64:ff9b::a9fe:0", 112, "ipv6");
LINK_LOCAL.addAddress("fd00:ec2::254", "ipv6");
LINK_LOCAL.addAddress("100.100.100.200", "ipv4");

/** Host names of cloud metadata services (compared lowercase, without a trailing dot). */
const METADATA_NAMES = new Set([
  "metadata",
  "metadata.google.internal",
  "metadata.goog",
  "metadata.azure.internal",
  "instance-data",
  "instance-data.ec2.internal",
  "metadata.tencentyun.com",
  "metadata.platformequinix.com",
]);

/** How a host name is resolved: its addresses, or a rejection when it has none. */
export type Resolve = (host: string) => Promise<string[]>;
const systemResolve: Resolve = async (host) => (await lookup(host, { all: true })).map((a) => a.address);

/** The why of every link-local refusal, with what to set to allow it. */
const LINK_LOCAL_RULE = "Mailroom does not send to link-local addresses or cloud metadata services unless [server] allow_link_local = true";

function isLinkLocal(address: string): boolean {
  const bare = address.replace(/^\[(.*)\]$/, "$1");
  const family = isIP(bare);
  return family !== 0 && LINK_LOCAL.check(bare, family === 4 ? "ipv4" : "ipv6");
}

/**
 * Why `url`'s host is link-local or a metadata service, judged by its name or address alone (no
 * DNS): the config file's check, where nothing is resolved. Undefined when it is not, or when the
 * URL does not parse (urlProblem says so). The URL parser's reading counts, so that
 * `http://2852039166/` and `http://[::ffff:a9fe:a9fe]/` are 169.254.169.254 too.
 */
export function linkLocalProblem(url: string): string | undefined {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase().replace(/\.$/, "");
  } catch {
    return undefined;
  }
  if (METADATA_NAMES.has(host)) return `the host ${host} is a cloud metadata service: ${LINK_LOCAL_RULE}`;
  if (isLinkLocal(host)) return `${host} is a link-local address: ${LINK_LOCAL_RULE}`;
  return undefined;
}

/**
 * Why Mailroom must not send a request to `url` now, or undefined: the host's name or address
 * (linkLocalProblem), then every address the name resolves to, so that a name pointing at
 * 169.254.169.254 is refused too. A name that does not resolve is no problem of this check (the
 * request fails on its own). All of it is skipped with `[server] allow_link_local = true`.
 * Resolved once, before the request: a DNS server answering otherwise a moment later is not seen.
 */
export async function outboundProblem(url: string, options: { allowLinkLocal: boolean; resolve?: Resolve }): Promise<string | undefined> {
  if (options.allowLinkLocal) return undefined;
  const named = linkLocalProblem(url);
  if (named) return named;
  let host: string;
  try {
    host = new URL(url).hostname.replace(/^\[(.*)\]$/, "$1");
  } catch {
    return undefined;
  }
  if (isIP(host) !== 0) return undefined;
  const addresses = await (options.resolve ?? systemResolve)(host).catch(() => [] as string[]);
  const bad = addresses.find(isLinkLocal);
  return bad ? `${host} resolves to ${bad}, a link-local address: ${LINK_LOCAL_RULE}` : undefined;
}
