import { forwardTargetProblems, outboundProblem, type Resolve } from "../config/forward-target";
import { AppError, invalid } from "../lib/errors";
import { requestPartsProblem } from "../lib/http-syntax";
import { REDACTED } from "../hooks/redact";
import type { RawHook } from "../hooks/store";
import { keyOf, type ResignSettings, resignProblem, resignRequest } from "../delivery/resign";

/** What a replay answers: the target's answer, or why there was none. */
export type ReplayResult =
  | { status: number; headers: Record<string, string>; body: string; truncated: boolean; duration_ms: number }
  | { error: string; duration_ms: number };

export type ReplayInput = { url: string; method?: string; headers?: Record<string, string>; body?: Uint8Array; resign?: ResignSettings };
/** `[server] allow_link_local`, and how host names are resolved to judge it. */
export type ReplayOutbound = { allowLinkLocal: boolean; resolve?: Resolve; now?: () => number };

/** Bytes of the target's answer kept; the rest is dropped (`truncated`). */
export const REPLAY_ANSWER_MAX = 1024 * 1024;
export const REPLAY_TIMEOUT_MS = 10_000;
const HOP_BY_HOP = new Set(["connection", "keep-alive", "transfer-encoding", "te", "trailer", "upgrade", "host", "content-length", "expect"]);

/**
 * The request signed as `resign.kind` with the user's key, a fresh timestamp and delivery ids
 * (delivery/resign.ts); throws invalid_argument for a kind that cannot be re-signed or a missing key.
 */
function resigned<R extends { url: string; method: string; headers: Headers; body: Uint8Array | undefined }>(
  request: R,
  resign: ResignSettings,
  hookId: string,
  now: number,
): R {
  const problem = resignProblem(resign.kind);
  if (problem) throw invalid(`resign.kind: ${problem}`);
  const key = keyOf(resign.kind);
  if (!resign[key]) throw invalid(`resign.${key}: ${resign.kind} signs with ${key === "secret" ? "a shared secret" : "a private key (PEM)"}`);
  try {
    return { ...request, ...resignRequest(request, resign, now, `${hookId}\0replay\0${crypto.randomUUID()}`) };
  } catch (error) {
    throw invalid(`resign: ${(error as Error).message}`);
  }
}

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
  let request = { url: input.url, method, headers: new Headers(headers), body: bodyless ? undefined : (input.body ?? hook.body) };
  if (input.resign) request = resigned(request, input.resign, hook.id, now());
  const started = now();
  let res: Response;
  try {
    res = await fetch(request.url, {
      method,
      headers: request.headers,
      body: request.body,
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
