import type { Config } from "../config/schema";
import { ulidTime } from "../lib/ids";
import { NAME_PATTERN, NAME_RULE } from "../config/schema";
import type { Log } from "../lib/log";
import type { GuardInput } from "./guards";
import { printable } from "../lib/terminal";
import type { ChannelService, ChannelState } from "./channels";
import type { DeliveryDedup } from "./deliveries";
import { errorResponse } from "./errors";
import { detectEventType, type EventTypeRule, eventTypeBy, type HeaderRecord } from "./event-type";
import type { Guard, Refusals } from "./guards";
import { forDiagnosis } from "./guards/saved-request";
import type { RefusalInput } from "./guards/types";
import { LANDING_PAGE } from "./landing";
import { bodyDropped, readBody } from "./read-body";
import { REDACTED, redactHeaders, redactQuery, redactRefusedQuery } from "./redact";
import { createDelays } from "./delays";
import { answerResponse, type CustomResponses } from "./answer";
import { type BatchWriter, SenderGone } from "./writer";

type GuardPlan = {
  beforeBody: Guard[];
  afterBody: Guard[];
  limit: number;
  limitGuard?: Guard;
  secretHeaders?: string[];
  secretQuery?: string[];
  /** The guards' signature headers: kept for a diagnosis, never listed (hooks/redact.ts). */
  signatureHeaders?: string[];
  /** Where the first preset guard of the chain says the event type is; undefined: detected. */
  eventType?: EventTypeRule;
  /** Guards that answer their provider's handshake. */
  handshakes: Guard[];
  /** Whether a guard of the chain authenticates the sender: every hook the chain lets through is then verified. */
  verified: boolean;
};

const CHANNEL_RE = new RegExp(NAME_PATTERN);

/** JSON-quoted, and format characters (bidirectional overrides, zero-width) written as escapes too, so the text reads as what it is. */
const quoted = (text: string) => printable(JSON.stringify(text));

/** In check-config's words, with what was refused (quoted, cut at 80 characters). */
export function channelNameProblem(name: string): string {
  if (name.length > 64) return `channel names are at most 64 characters: got ${name.length} (${quoted(`${name.slice(0, 20)}...`)})`;
  return `channel names are ${NAME_RULE}: got ${quoted(name.slice(0, 80))}`;
}
const NO_BODY = new Uint8Array(0);
const CORS = { "access-control-allow-origin": "*" };
/** One Headers instance for every 200: cheaper to copy than a plain object is to convert. */
const okHeaders = new Headers({ "content-type": "application/json", ...CORS });

/**
 * The catching endpoint: one thin step. Resolve the channel, run the guards that judge no body,
 * read the exact body bytes within the limit, run the other guards, hand the hook to the batched
 * writer and answer 200 `{"id"}` once its batch has committed. Nothing is parsed for display here.
 */
/** What a refusal records of the request besides its verdict: read once per request. */
type Sender = { request: Request; query: string; ip: string; method: string };

export function createCatcher(deps: {
  config: Config;
  channels: ChannelService;
  guards: Map<string, Guard>;
  refusals: Refusals;
  writer: BatchWriter;
  nextId: () => string;
  log: Log;
  responses: CustomResponses;
  dedup: DeliveryDedup;
}) {
  const { config, channels, guards, refusals, writer, nextId, log, responses, dedup } = deps;
  const maxBody = config.hooks.max_body;
  const retryAfter = String(Math.ceil(config.hooks.paused_retry_after / 1000));
  const trustProxy = config.server.trust_proxy;

  async function handle(request: Request, socketIp: string): Promise<Response> {
    const method = request.method;
    const url = request.url;
    const q = url.indexOf("?");
    const query = q < 0 ? "" : url.slice(q + 1);
    if (method === "OPTIONS") return preflight(request);
    if ((method === "GET" || method === "HEAD") && query === "") {
      return new Response(method === "HEAD" ? null : LANDING_PAGE, { headers: { "content-type": "text/html; charset=utf-8" } });
    }
    if (method === "HEAD") return new Response(null, { status: 405, headers: { allow: "GET, POST, PUT, PATCH, DELETE, OPTIONS", ...CORS } });
    const ip = senderIp(request, socketIp, trustProxy);
    const sender: Sender = { request, query, ip, method };
    // Refusals before any guard ran are recorded too, with the request's headers (redacted).
    const refused = (channel: string, kind: "invalid_argument" | "unavailable" | "payload_too_large", message: string, plan?: GuardPlan, extra = {}) => {
      const status = kind === "invalid_argument" ? 400 : kind === "unavailable" ? 503 : 413;
      record(sender, plan, { kind: "refused", channel, guard: "", status, reason: message });
      return errorResponse(kind, message, { ...extra, ...CORS });
    };
    if (bodyDropped(request)) {
      return refused(
        channelParam(query) ?? "default",
        "invalid_argument",
        "a GET request's body cannot be kept (it never reaches Mailroom); send the hook with POST, PUT, PATCH or DELETE",
      );
    }

    const channel = channelParam(query) ?? "default";
    if (channel.length > 64 || !CHANNEL_RE.test(channel)) return refused(channel, "invalid_argument", channelNameProblem(channel));
    const state = channels.stateOf(channel);
    const plan = planOf(channel, state);
    if (state.paused) return refused(channel, "unavailable", `channel "${channel}" is paused`, plan, { "retry-after": retryAfter });
    if (!plan) return refused(channel, "unavailable", `channel "${channel}" is misconfigured; hooks are refused until it is fixed`);

    // An unsigned challenge (Meta's hub.challenge, X's CRC...) is answered before any guard judges it.
    for (const guard of plan.handshakes) {
      const answer = guard.handshake!.before?.({ method, query, headers: request.headers });
      if (answer) return handshake(sender, plan, guard, channel, answer);
    }

    // Guards that judge no body go first, so that a refused sender's body is never read.
    for (const guard of plan.beforeBody) {
      const verdict = await guard.check({ method, query, headers: request.headers, body: NO_BODY, ip, url });
      if (!verdict.ok) return refuse(sender, plan, guard, channel, verdict.status, verdict.reason, verdict.headers);
    }

    const read = await readBody(request, plan.limit);
    if (read === "too_large") {
      const why = `body larger than ${plan.limit} bytes`;
      return plan.limitGuard ? refuse(sender, plan, plan.limitGuard, channel, 413, why) : refused(channel, "payload_too_large", why, plan);
    }
    if (read === "aborted") return refused(channel, "invalid_argument", "the request body could not be read", plan);

    for (const guard of plan.afterBody) {
      const input = { method, query, headers: request.headers, body: read, ip, url };
      const verdict = await guard.check(input);
      // The request as the guard saw it goes with a 401 refusal: diagnose/ works out why, after the answer.
      if (!verdict.ok) return refuse(sender, plan, guard, channel, verdict.status, verdict.reason, verdict.headers, verdict.status === 401 ? input : undefined);
    }
    // A signed challenge (Slack's url_verification, Discord's PING...) passed its guard: answered, not kept as a hook.
    for (const guard of plan.handshakes) {
      const answer = await guard.handshake!.after?.({ method, query, headers: request.headers, body: read });
      if (answer) return handshake(sender, plan, guard, channel, answer);
    }

    // A repeat of a delivery the channel already stored is answered as the first was (dedup/index.ts).
    const deliveryId = dedup.keyOf(channel, request.headers, read);
    const claim = deliveryId === undefined ? undefined : await dedup.claim(channel, deliveryId);
    if (claim && "first" in claim) return new Response(`{"id":"${claim.first}"}`, { headers: okHeaders });
    const answer = responses.next(channel);
    if (answer && !answer.store) {
      claim?.settle(undefined);
      return delayed(answerResponse(answer, undefined), answer.delayMs);
    }

    const stored = plan.secretQuery ? redactQuery(query, plan.secretQuery) : query;
    const all = request.headers.toJSON() as HeaderRecord;
    const eventType = plan.eventType ? eventTypeBy(plan.eventType, all, read) : detectEventType(all, read);
    const headers = headersJsonOf(all, plan.secretHeaders);
    const id = nextId();
    try {
      await writer.write(
        {
          id,
          channel,
          method,
          query: stored,
          headers,
          body: read,
          ip,
          // The time in its id: `since` and `after:` compare ids, so created_at must not be later.
          createdAt: ulidTime(id),
          deliveryId,
          contentType: request.headers.get("content-type"),
          eventType,
          verified: plan.verified,
        },
        () => request.signal.aborted,
      );
    } catch (error) {
      claim?.settle(undefined);
      if (error instanceof SenderGone) return gone();
      log.error("could not store a hook", { channel, error: String(error) });
      return errorResponse("unavailable", "the hook could not be stored; try again", { "retry-after": "1", ...CORS });
    }
    claim?.settle(id);
    if (answer) return delayed(answerResponse(answer, id), answer.delayMs);
    return new Response(`{"id":"${id}"}`, { headers: okHeaders });
  }

  /**
   * A hook whose connection closed before its batch was taken is not stored: its answer could
   * never be sent, and the sender's retry must not make a second copy. Bun closes a connection,
   * unanswered, when a pipelined request arrives behind an answer still pending (every hook's is,
   * until its batch commits), so two POSTs sent in one write store nothing and are both retried.
   */
  function gone(): Response {
    // The writer says so once per batch (compose/webhooks.ts): many connections close at once.
    return errorResponse("unavailable", "the connection closed before the hook was stored", CORS);
  }

  /**
   * Answers after `ms` without holding anything up: other requests are caught meanwhile. Bun does
   * not close a connection as idle while its answer is pending (a 12 s delay under a 1 s idle
   * timeout was answered), so nothing lifts the timeout for it. Shutdown cuts the wait short
   * (`cutDelays`): the sender still gets its answer.
   */
  const delays = createDelays();
  async function delayed(response: Response, ms: number): Promise<Response> {
    if (ms <= 0) return response;
    await delays.wait(ms);
    return response;
  }

  /**
   * What a channel's guards ask of each request, worked out once per channel state (the state
   * object is replaced whenever the channel changes): the guards before and after the body, the
   * body limit and the guard that set it, and what to redact. Undefined when a guard is missing.
   */
  let plans = new WeakMap<ChannelState, GuardPlan | undefined>();
  function planOf(channel: string, state: ChannelState): GuardPlan | undefined {
    if (plans.has(state)) return plans.get(state);
    const plan = buildPlan(state.guards);
    // Once per channel state: a sender must not be able to flood the log.
    if (!plan) log.error("channel names a guard that is not configured", { channel, missing: state.guards.filter((n) => !guards.has(n)) });
    plans.set(state, plan);
    return plan;
  }

  function buildPlan(names: readonly string[]): GuardPlan | undefined {
    if (!names.every((name) => guards.has(name))) return undefined;
    const chain = names.map((name) => guards.get(name)!);
    let limitGuard: Guard | undefined;
    for (const g of chain) if (g.maxBody !== undefined && g.maxBody < (limitGuard?.maxBody ?? maxBody)) limitGuard = g;
    const secretHeaders = chain.flatMap((g) => g.secretHeaders ?? []);
    const secretQuery = chain.flatMap((g) => g.secretQuery ?? []);
    const signatureHeaders = chain.flatMap((g) => g.signatureHeaders ?? []);
    return {
      beforeBody: chain.filter((g) => g.beforeBody),
      afterBody: chain.filter((g) => !g.beforeBody),
      limit: limitGuard?.maxBody ?? maxBody,
      limitGuard,
      secretHeaders: secretHeaders.length ? secretHeaders : undefined,
      secretQuery: secretQuery.length ? secretQuery : undefined,
      signatureHeaders: signatureHeaders.length ? signatureHeaders : undefined,
      eventType: chain.find((g) => g.eventType)?.eventType,
      handshakes: chain.filter((g) => g.handshake),
      verified: chain.some((g) => g.authenticates),
    };
  }

  /** Records a refusal with the request's query and headers, the channel's secrets and any credential redacted. */
  function record(sender: Sender, plan: GuardPlan | undefined, r: Omit<RefusalInput, "id" | "query" | "headers" | "ip" | "method">): void {
    const { request, query, ip, method } = sender;
    // Without the channel's plan (a bad channel name, a missing guard), every guard's credentials are redacted.
    const all = plan ? undefined : [...guards.values()];
    const secretQuery = all ? all.flatMap((g) => g.secretQuery ?? []) : plan?.secretQuery;
    const secretHeaders = all ? all.flatMap((g) => g.secretHeaders ?? []) : plan?.secretHeaders;
    const signatureHeaders = all ? all.flatMap((g) => g.signatureHeaders ?? []) : plan?.signatureHeaders;
    refusals.record({
      ...r,
      ip,
      method,
      id: nextId(),
      query: redactRefusedQuery(query, secretQuery),
      headers: redactHeaders(request.headers, secretHeaders, signatureHeaders),
    });
  }

  function refuse(
    sender: Sender,
    plan: GuardPlan,
    guard: Guard,
    channel: string,
    status: number,
    reason: string,
    headers: Record<string, string> = {},
    input?: GuardInput,
  ): Response {
    // The request kept for the diagnosis: signatures in, credentials that sign nothing out.
    const request = input && forDiagnosis(input, guard.signatureHeaders);
    record(sender, plan, { kind: "refused", channel, guard: guard.name, status, reason, ...(request ? { request } : {}) });
    const kind =
      status === 401
        ? "unauthenticated"
        : status === 403
          ? "permission_denied"
          : status === 405
            ? "method_not_allowed"
            : status === 413
              ? "payload_too_large"
              : "unsupported_media_type";
    return errorResponse(kind, `guard "${guard.name}": ${reason}`, { ...CORS, ...headers });
  }

  /**
   * A handshake answered: kept with the refusals as kind "handshake" (status 200 or the answer's,
   * the reason saying which handshake; one the guard refused, a wrong verify_token, is "refused"),
   * never as a hook, so no handler sees it.
   */
  function handshake(sender: Sender, plan: GuardPlan, guard: Guard, channel: string, answer: { response: Response; what: string }): Response {
    const { status } = answer.response;
    const kind = status < 300 ? "handshake" : "refused";
    record(sender, plan, { kind, channel, guard: guard.name, status, reason: `handshake: ${answer.what}` });
    for (const [k, v] of Object.entries(CORS)) answer.response.headers.set(k, v);
    return answer.response;
  }

  /** Forgets every plan: a guard was defined, changed or removed (the dashboard), so the next request builds them again. */
  const invalidatePlans = (): void => void (plans = new WeakMap());

  /** Shutdown: delayed answers are given at the latest `graceMs` from now (new ones too). */
  const cutDelays = (graceMs: number): void => delays.cut(graceMs);

  return { handle, invalidatePlans, cutDelays };
}

/**
 * The `channel` query parameter as URLSearchParams would read it (the first one; null when
 * absent), without building URLSearchParams for the usual query that needs no decoding.
 */
export function channelParam(query: string): string | null {
  if (query === "") return null;
  if (query.includes("%") || query.includes("+")) return new URLSearchParams(query).get("channel");
  let from = 0;
  while (from <= query.length) {
    let to = query.indexOf("&", from);
    if (to < 0) to = query.length;
    if (query.startsWith("channel", from) && (to === from + 7 || query.charCodeAt(from + 7) === 61) /* = */) {
      return query.slice(Math.min(from + 8, to), to);
    }
    from = to + 1;
  }
  return null;
}

/**
 * The request headers as stored: JSON, lower-case names, repeated ones joined with ", ", cookies
 * left out, and the values of `secret` headers (a guard's credentials) replaced by REDACTED.
 */
export function headersJson(headers: Headers, secret?: readonly string[]): string {
  return headersJsonOf(headers.toJSON() as HeaderRecord, secret);
}

/** headersJson of what Headers#toJSON returned (changed in place: cookies dropped, secrets redacted). */
function headersJsonOf(all: HeaderRecord, secret?: readonly string[]): string {
  delete all.cookie;
  if (secret) for (const name of secret) if (all[name] !== undefined) all[name] = REDACTED;
  const setCookie = all["set-cookie"];
  if (setCookie !== undefined && typeof setCookie !== "string") all["set-cookie"] = setCookie.join(", ");
  return JSON.stringify(all);
}

function preflight(request: Request): Response {
  return new Response(null, {
    status: 204,
    headers: {
      ...CORS,
      allow: "GET, POST, PUT, PATCH, DELETE, OPTIONS",
      "access-control-allow-methods": "GET, POST, PUT, PATCH, DELETE",
      "access-control-allow-headers": request.headers.get("access-control-request-headers") ?? "*",
      "access-control-max-age": "86400",
    },
  });
}

/**
 * With trust_proxy, the right-most address of X-Forwarded-For, else the last `for=` of Forwarded:
 * the one the proxy in front of Mailroom added. Entries to its left come from the sender, who can
 * write anything there (an ip-allow guard judging them could be fooled).
 */
export function senderIp(request: Request, socketIp: string, trustProxy: boolean): string {
  if (!trustProxy) return socketIp;
  const xff = request.headers.get("x-forwarded-for");
  if (xff) return xff.slice(xff.lastIndexOf(",") + 1).trim() || socketIp;
  const fwd = request.headers.get("forwarded");
  const all = fwd ? [...fwd.matchAll(/for="?\[?([^\]";,]+)/gi)] : [];
  const m = all.at(-1);
  return m ? m[1]!.replace(/:\d+$/, (p) => (m[1]!.includes(".") ? "" : p)) : socketIp;
}
