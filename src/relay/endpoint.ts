/**
 * The relay endpoint, `GET /relay/v1/channels/{name}` with a relay key, on both listeners:
 *
 * - without `Upgrade: websocket`, a preflight: 200 `{"channel","waiting","max_body"}`, or the
 *   reason the connection would be refused in the management API's error body (401 wrong token,
 *   403 a key without the relay scope or without this channel, 404 an unknown channel, 409 another
 *   listener holds the relay, naming its host and start time). `mailroom listen` asks it first: a
 *   failed WebSocket upgrade tells the client nothing.
 * - with it, the WebSocket the hooks travel on (relay/hub.ts), after the same checks.
 */
import type { Server, WebSocketHandler } from "bun";
import { type ApiKey, findKey, type KeySource } from "../hooks/auth";
import { errorResponse } from "../hooks/errors";
import { AppError } from "../lib/errors";
import { busyMessage, type RelayHub, type RelaySocketData } from "./hub";
import { FRAME_OVERHEAD, RELAY_PATH, relayHandlerName } from "./protocol";

const CHANNEL = /^\/relay\/v1\/channels\/([a-z0-9]+(?:[_-][a-z0-9]+)*)$/;
/** Headers `mailroom listen` sends to say who it is (kept in relay_listeners, shown in the busy error). */
const LISTENER = /^[A-Za-z0-9_-]{8,64}$/;

export type RelayEndpoint = {
  prefix: string;
  handle(request: Request, original: Request, server: Server<RelaySocketData>): Promise<Response | undefined>;
  websocket: WebSocketHandler<RelaySocketData>;
};

export function createRelayEndpoint(deps: {
  keys: KeySource;
  hub: RelayHub;
  channelKnown: (name: string) => Promise<boolean>;
  maxBody: number;
}): RelayEndpoint {
  const { keys, hub } = deps;

  async function check(request: Request): Promise<Response | RelaySocketData> {
    const path = new URL(request.url).pathname;
    const m = CHANNEL.exec(path);
    if (!m || m[1]!.length > 64) return errorResponse("not_found", `not found: the relay endpoint is ${RELAY_PATH}/channels/{name}`);
    if (request.method !== "GET") return errorResponse("method_not_allowed", "the relay endpoint takes GET", { allow: "GET" });
    const channel = m[1]!;
    let key: ApiKey;
    try {
      key = await findKey(keys, request);
    } catch (error) {
      if (error instanceof AppError) return errorResponse(error.kind, `${error.message} (wrong token?)`, { "www-authenticate": "Bearer" });
      throw error;
    }
    hub.sync(keys.keys);
    if (!key.grant?.scopes.includes("relay"))
      return errorResponse("permission_denied", `API key "${key.label}" is not a relay key: the relay takes keys with scopes = ["relay"] only`);
    if (!key.grant.channels.includes(channel)) {
      if (!(await deps.channelKnown(channel))) return errorResponse("not_found", `unknown channel "${channel}" upstream`);
      return errorResponse("permission_denied", `API key "${key.label}" may not relay channel "${channel}" (its channels: ${key.grant.channels.join(", ")})`);
    }
    const h = request.headers;
    const listener = h.get("x-mailroom-listener") ?? "";
    const startedAt = Number(h.get("x-mailroom-started") ?? "");
    const host = (h.get("x-mailroom-host") ?? "").replace(/[^\x20-\x7e]/g, "").slice(0, 255) || "unknown host";
    if (!LISTENER.test(listener) || !Number.isSafeInteger(startedAt) || startedAt <= 0)
      return errorResponse("invalid_argument", "say who listens: X-Mailroom-Listener (8-64 of A-Z a-z 0-9 _ -) and X-Mailroom-Started (ms)");
    const handler = relayHandlerName(key.label, channel);
    const holder = await hub.holder(handler, listener);
    if (holder) return errorResponse("failed_precondition", busyMessage(channel, holder));
    return { handler, label: key.label, channel, listener, host, startedAt };
  }

  return {
    prefix: RELAY_PATH,
    async handle(request, original, server) {
      const checked = await check(request);
      if (checked instanceof Response) return checked;
      if (request.headers.get("upgrade")?.toLowerCase() !== "websocket") {
        const waiting = (await hub.state()).find((r) => r.handler === checked.handler)?.waiting ?? 0;
        return Response.json({ channel: checked.channel, waiting, max_body: deps.maxBody });
      }
      // The idle timeout does not apply to the socket; its heartbeats do (relay/hub.ts).
      if (server.upgrade(original, { data: checked })) return undefined;
      return errorResponse("invalid_argument", "the WebSocket upgrade failed: send Upgrade: websocket with its handshake headers");
    },
    websocket: {
      ...hub.websocket,
      maxPayloadLength: deps.maxBody + FRAME_OVERHEAD,
      backpressureLimit: Math.max(16 * 1024 * 1024, 2 * (deps.maxBody + FRAME_OVERHEAD)),
      idleTimeout: 60,
      sendPings: false,
    },
  };
}
