/**
 * Why a fetch() failed, in a few words: Bun's own text ("ECONNREFUSED: Unable to connect. Is the
 * computer able to access the url?", "... pass `verbose: true` in the second argument to fetch()")
 * speaks to a developer at Bun's console, not to someone reading a handler's attempt. The error's
 * code decides; an error without a known code keeps its first sentence.
 *
 * @example fetchFailure(await fetch("http://127.0.0.1:1").catch((e) => e)) // "connection refused"
 */
const REASONS: Record<string, string> = {
  ECONNREFUSED: "connection refused",
  ConnectionRefused: "connection refused",
  ECONNRESET: "connection closed before an answer",
  ConnectionClosed: "connection closed before an answer",
  EPIPE: "connection closed while sending",
  ETIMEDOUT: "connection timed out",
  EHOSTUNREACH: "host unreachable",
  ENETUNREACH: "network unreachable",
  EADDRNOTAVAIL: "address not available",
  ENOTFOUND: "host not found",
  EAI_AGAIN: "host name lookup failed (try again)",
  DNSException: "host name lookup failed",
  EPROTO: "TLS handshake failed",
  FailedToOpenSocket: "could not open a connection",
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: "TLS certificate not trusted",
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: "TLS certificate not trusted",
  SELF_SIGNED_CERT_IN_CHAIN: "TLS certificate not trusted (self-signed in chain)",
  DEPTH_ZERO_SELF_SIGNED_CERT: "TLS certificate not trusted (self-signed)",
  CERT_HAS_EXPIRED: "TLS certificate expired",
  ERR_TLS_CERT_ALTNAME_INVALID: "TLS certificate is for another host",
  ERR_INVALID_URL: "invalid URL",
  ERR_UNSUPPORTED_PROTOCOL: "unsupported URL scheme",
};

/** At most this many characters of an error no code explains. */
const MAX = 160;

export function fetchFailure(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === "string" && REASONS[code]) return REASONS[code];
  const message = error instanceof Error ? error.message || error.name : String(error);
  // "CODE: Sentence. Advice." -> the sentence; a bare code stays as it is.
  const text = message.replace(/^[A-Z][A-Z0-9_]+: /, "");
  const first = text.split(/(?<=[a-z0-9)])\.\s/)[0]!.replace(/\.$/, "");
  const short = first.length > MAX ? `${first.slice(0, MAX - 3)}...` : first;
  return typeof code === "string" && /^E[A-Z0-9_]+$/.test(code) && !short.includes(code) ? `${short} (${code})` : short;
}
