import { forwardTargetProblems, outboundProblem, type Resolve } from "../../config/forward-target";
import type { ForwardConfig } from "../../config/handlers";
import type { RawHook } from "../../hooks/store";
import { REDACTED } from "../../hooks/redact";
import { parseRetryAfter } from "../../lib/backoff";
import { readResponseExcerpt } from "../excerpt";
import { fetchFailure } from "../../lib/fetch-error";
import { withoutEnvKeys, type AttemptContext, type AttemptResult, type Deliver, type HandlerPolicy, type Outgoing } from "./types";

/** Headers that describe one connection, not the hook (RFC 9110 section 7.6.1), and those fetch sets itself. */
const HOP_BY_HOP = new Set(["connection", "keep-alive", "transfer-encoding", "te", "trailer", "upgrade", "host", "content-length", "expect"]);

/**
 * The headers sent to the target: the hook's own minus hop-by-hop ones (and any the sender's
 * Connection header named) and redacted credentials, plus headers identifying the hook, then the
 * configured ones.
 */
export function forwardHeaders(hook: RawHook, attempt: number, configured: Record<string, string>): Headers {
  const named = (hook.headers["connection"] ?? "").split(",").map((s) => s.trim().toLowerCase());
  const out = new Headers();
  for (const [name, value] of Object.entries(hook.headers)) {
    const lower = name.toLowerCase();
    if (HOP_BY_HOP.has(lower) || lower.startsWith("proxy-") || named.includes(lower)) continue;
    // A guard's credentials were stored redacted: they were for Mailroom, not for the target.
    if (value === REDACTED) continue;
    try {
      out.set(lower, value);
    } catch {
      // A header the sender got away with but fetch refuses: skip it rather than fail every attempt.
    }
  }
  out.set("x-mailroom-hook-id", hook.id);
  out.set("x-mailroom-channel", hook.channel);
  out.set("x-mailroom-attempt", String(attempt));
  for (const [name, value] of Object.entries(withoutEnvKeys(configured))) out.set(name, value);
  return out;
}

/** Where a forward may send: `[server] allow_link_local`, and how names are resolved to judge it. */
export type Outbound = { allowLinkLocal: boolean; resolve?: Resolve };

/**
 * Sends the hook with its original method and body bytes; any 2xx is success. Redirects are not followed.
 * A target fetch refuses (config/forward-target.ts; the config and the dashboard refuse it, but a
 * forward stored by an older version may have one) fails every attempt saying what is wrong. So
 * does a host that is, or resolves to, a link-local address (checked at each attempt: what a name
 * resolves to may change) unless `outbound.allowLinkLocal`.
 */
export function createForward(
  config: ForwardConfig,
  policy: HandlerPolicy,
  outbound: Outbound = { allowLinkLocal: false },
  deliver: () => Deliver | undefined = () => undefined,
) {
  const problems = forwardTargetProblems(config.url, config.headers);
  const refused = problems.map((p) => [p.path, p.message].filter(Boolean).join(": ")).join("; ");
  return async function run(hook: RawHook, context: AttemptContext): Promise<AttemptResult> {
    if (refused) return { ok: false, excerpt: "", error: `the handler's settings cannot be sent: ${refused}` };
    const forbidden = await outboundProblem(config.url, outbound);
    if (forbidden) return { ok: false, excerpt: "", error: `not sent: ${forbidden}` };
    const bodyless = hook.method === "GET" || hook.method === "HEAD";
    const request: Outgoing = {
      url: config.url,
      method: hook.method,
      headers: forwardHeaders(hook, context.attempt, config.headers),
      body: bodyless ? undefined : hook.body,
    };
    const send = (r: Outgoing) => sendOnce(r, policy, context.now);
    const through = deliver();
    return through ? through(request, hook, context, send) : send(request);
  };
}

/** One fetch of the request; any 2xx is success, redirects are not followed. */
async function sendOnce(request: Outgoing, policy: HandlerPolicy, now: number): Promise<AttemptResult> {
  let res: Response;
  const signal = AbortSignal.timeout(policy.timeout);
  try {
    res = await fetch(request.url, { method: request.method, headers: request.headers, body: request.body, redirect: "manual", signal });
  } catch (error) {
    const timedOut = signal.aborted;
    return { ok: false, excerpt: "", error: timedOut ? `no answer within ${policy.timeout} ms` : fetchFailure(error) };
  }
  const excerpt = await readResponseExcerpt(res);
  const ok = res.status >= 200 && res.status < 300;
  return {
    ok,
    httpStatus: res.status,
    excerpt,
    error: ok ? "" : `answered ${res.status}${res.statusText ? " " + res.statusText : ""}`,
    retryAfter: ok ? undefined : parseRetryAfter(res.headers.get("retry-after"), now),
  };
}
