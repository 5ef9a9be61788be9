/**
 * Before each connection `mailroom listen` asks the relay endpoint without upgrading: a failed
 * WebSocket handshake tells the client nothing, the preflight's answer says why (wrong token, not a
 * relay key, unknown channel, another listener, unreachable).
 */

/** Seconds between reconnections: 2, 4, 8, 16, then 30 (reset once a connection was accepted). */
export function reconnectDelay(failures: number): number {
  return Math.min(30_000, 2_000 * 2 ** Math.max(0, failures));
}

/** Why upstream would refuse the connection ("401 invalid bearer token ..."), or undefined when it would accept it. */
export async function preflight(endpoint: string, headers: Record<string, string>): Promise<string | undefined> {
  let res: Response;
  try {
    res = await fetch(endpoint, { headers, signal: AbortSignal.timeout(10_000), redirect: "manual" });
  } catch (error) {
    return `unreachable (${(error as Error)?.message ?? error})`;
  }
  const text = await res.text();
  if (res.ok) return undefined;
  let message = text.slice(0, 300);
  try {
    message = (JSON.parse(text) as { message?: string }).message ?? message;
  } catch {}
  return `${res.status} ${message}`;
}
