import { forwardTargetProblems, outboundProblem, type Resolve } from "../config/forward-target";
import { AppError, invalid } from "../lib/errors";
import { requestPartsProblem } from "../lib/http-syntax";
import { REDACTED } from "../hooks/redact";
import type { RawHook } from "../hooks/store";

/** What a replay answers: the target's answer, or why there was none. */
export type ReplayResult =
  | { status: number; headers: Record<string, string>; body: string; truncated: boolean; duration_ms: number }
  | { error: string; duration_ms: number };

export type ReplayInput = { url: string; method?: string; headers?: Record<string, string>; body?: Uint8Array };
/** `[server] allow_link_local`, and how host names are resolved to judge it. */
export type ReplayOutbound = { allowLinkLocal: boolean; resolve?: Resolve; now?: () => number };

/** Bytes of the target's answer kept; the rest is dropped (`truncated`). */
export const REPLAY_ANSWER_MAX = 1024 * 1024;
export const REPLAY_TIMEOUT_MS = 10_000;
const HOP_BY_HOP = new Set(["connection", "keep-alive", "transfer-encoding", "te", "trailer", "upgrade", "host", "content-length", "expect"]);

/**
 * Sends a hook (edited or not) to a URL and answers what came back: the edit-and-send's "send to a
 * URL". The target is checked as a forward handler's (config/forward-target.ts); redirects are not
 * followed; credentials stored redacted are not sent. Throws invalid_argument for a method or
 * headers an HTTP parser would refuse or a target fetch would refuse, permission_denied for a
 * link-local target or metadata service (unless `allowLinkLocal`); a target that cannot be reached
 * is an answer with `error`, not a failure.
 */
export async function replay(hook: RawHook, input: ReplayInput, outbound: ReplayOutbound): Promise<ReplayResult> {
  const now = outbound.now ?? Date.now;
  const method = input.method ?? hook.method;
  const edited = requestPartsProblem(method, input.headers ?? {});
  if (edited) throw invalid(edited);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(input.headers ?? hook.headers)) {
    const lower = name.toLowerCase();
    if (HOP_BY_HOP.has(lower) || lower.startsWith("proxy-") || value === REDACTED) continue;
    headers[lower] = value;
  }
  const problems = forwardTargetProblems(input.url, headers);
  if (problems.length > 0) throw invalid(problems.map((p) => [p.path, p.message].filter(Boolean).join(": ")).join("; "));
  const forbidden = await outboundProblem(input.url, outbound);
  if (forbidden) throw new AppError("permission_denied", `url: ${forbidden}`);
  const bodyless = method === "GET" || method === "HEAD";
  const started = now();
  let res: Response;
  try {
    res = await fetch(input.url, {
      method,
      headers,
      body: bodyless ? undefined : (input.body ?? hook.body),
      redirect: "manual",
      signal: AbortSignal.timeout(REPLAY_TIMEOUT_MS),
    });
  } catch (error) {
    const timedOut = (error as Error).name === "TimeoutError";
    return { error: timedOut ? `no answer within ${REPLAY_TIMEOUT_MS} ms` : String((error as Error).message ?? error), duration_ms: now() - started };
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  if (res.body) {
    const reader = res.body.getReader();
    for (;;) {
      const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (done || !value) break;
      if (size + value.byteLength > REPLAY_ANSWER_MAX) {
        chunks.push(value.subarray(0, REPLAY_ANSWER_MAX - size));
        truncated = true;
        await reader.cancel().catch(() => {});
        break;
      }
      chunks.push(value);
      size += value.byteLength;
    }
  }
  return {
    status: res.status,
    headers: Object.fromEntries(res.headers),
    body: Buffer.concat(chunks).toString("base64"),
    truncated,
    duration_ms: now() - started,
  };
}
