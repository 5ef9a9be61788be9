/** Whether a relay upstream's URL would carry the relay key and hooks unencrypted over a network. */

/**
 * Why a relay URL is refused without `insecure`, or undefined: plain http:// to a host that is not
 * this machine carries the relay key and every hook unencrypted, and lets anyone on the path write
 * hooks into the laptop's store. Loopback (localhost, 127.0.0.0/8, [::1]) never leaves the machine.
 */
export function plainUpstreamProblem(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined; // the URL's own check says what is wrong with it
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "ws:") return undefined;
  const host = parsed.hostname.toLowerCase();
  if (host === "localhost" || host.endsWith(".localhost") || host === "[::1]" || /^127(?:\.\d{1,3}){3}$/.test(host)) return undefined;
  return `${parsed.protocol}// to ${host}, which is not this machine: the relay key and every hook would cross the network unencrypted, and anyone on the way could write hooks here. Use https://, or allow it on a network you trust`;
}
