/**
 * `mailroom healthcheck`: asks a running Mailroom for its landing page (GET /, which the catching
 * endpoint answers without touching the database) and says whether it answered 200. For container
 * health checks: exit 0 when it did, 1 with a one-line reason otherwise.
 */

/** How long the check waits for an answer. */
export const HEALTHCHECK_TIMEOUT_MS = 5_000;

/** The URL of the configured listener; an unspecified address (0.0.0.0, ::) is asked on loopback. */
export function defaultHealthUrl(host: string, port: number): string {
  const h = host === "" || host === "0.0.0.0" ? "127.0.0.1" : host === "::" || host === "[::]" ? "::1" : host;
  return `http://${h.includes(":") && !h.startsWith("[") ? `[${h}]` : h}:${port}/`;
}

export async function healthcheck(url: string, timeoutMs = HEALTHCHECK_TIMEOUT_MS): Promise<{ ok: boolean; message: string }> {
  let target: URL;
  try {
    target = new URL(url);
    if (target.protocol !== "http:" && target.protocol !== "https:") throw new Error();
  } catch {
    return { ok: false, message: `not an http(s) URL: ${url}` };
  }
  try {
    const res = await fetch(target, { redirect: "manual", signal: AbortSignal.timeout(timeoutMs) });
    await res.body?.cancel();
    if (res.status === 200) return { ok: true, message: `${target.href}: ok` };
    return { ok: false, message: `${target.href} answered ${res.status}` };
  } catch (error) {
    const why = (error as Error)?.name === "TimeoutError" ? `no answer within ${timeoutMs / 1000} s` : String((error as Error)?.message ?? error);
    return { ok: false, message: `${target.href}: ${why}` };
  }
}
