/**
 * Before each connection `mailroom listen` asks the relay endpoint without upgrading: a failed
 * WebSocket handshake tells the client nothing, the preflight's answer says why (wrong token, not a
 * relay key, unknown channel, another listener, unreachable).
 */
import { doublingDelay } from "../lib/backoff";
import { printable } from "../lib/terminal";

/** Seconds between reconnections: 2, 4, 8, 16, then 30 (reset once a connection was accepted). */
export function reconnectDelay(failures: number): number {
  return doublingDelay(failures, { initial: 2_000, max: 30_000 });
}

/**
 * Answers that trying again cannot change: a wrong token (401), a key without the relay scope or
 * this channel (403), an unknown channel or not a relay endpoint (404), a request upstream cannot
 * read (400, 405), a permanent redirect (301, 308: another URL is to be given). Everything else
 * (unreachable, 5xx, 409 another listener, 429) may pass, and is retried.
 */
const PERMANENT = new Set([301, 308, 400, 401, 403, 404, 405, 410]);

/** Why upstream would refuse the connection, and whether for good. */
export type Refusal = { message: string; permanent: boolean };

/** Why upstream would refuse the connection ("401 invalid bearer token ..."), or undefined when it would accept it. */
export async function preflight(endpoint: string, headers: Record<string, string>): Promise<Refusal | undefined> {
  let res: Response;
  try {
    res = await fetch(endpoint, { headers, signal: AbortSignal.timeout(10_000), redirect: "manual" });
  } catch (error) {
    return { message: `unreachable (${(error as Error)?.message ?? error})`, permanent: false };
  }
  const text = await res.text().catch(() => "");
  if (res.ok) return undefined;
  let message = text.slice(0, 300);
  try {
    message = (JSON.parse(text) as { message?: string }).message ?? message;
  } catch {}
  const location = res.headers.get("location");
  if (res.status >= 300 && res.status < 400 && location) message = `redirected to ${location.slice(0, 300)}: give that URL`;
  // Upstream's words are printed on this terminal: no control character of theirs reaches it.
  return { message: `${res.status} ${printable(String(message).slice(0, 300))}`, permanent: PERMANENT.has(res.status) };
}
