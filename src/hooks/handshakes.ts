import { createHmac } from "node:crypto";
import { constantTimeEqual, sha256Hex } from "../lib/secrets";
import type { Handshake } from "./guards/providers";
import type { HandshakeHandler } from "./guards/types";

/**
 * The challenges some providers send before (or beside) their events, answered at the catching
 * endpoint as their documentation shows. `before` runs ahead of the channel's guards, for the
 * unsigned GET challenges (Meta, X, Dropbox, Microsoft Graph); `after` runs once the guards passed,
 * for the signed ones (Slack, Zoom, Discord, Twitch, Okta). Either returns the answer, or undefined
 * when the request is not that handshake (it is then an ordinary hook).
 */
export type { HandshakeAnswer, HandshakeHandler, HandshakeRequest } from "./guards/types";

/** Longest challenge echoed: challenges are short tokens; anything longer is not one. */
const MAX_CHALLENGE = 2048;
/** What X's crc_token is made of (base64 and URL-safe letters), at most 256 of them. */
const CRC_TOKEN = /^[A-Za-z0-9+/=_.-]{1,256}$/;
/** Echoed text is never read as anything but text. */
const TEXT = { "content-type": "text/plain; charset=utf-8", "x-content-type-options": "nosniff", "content-security-policy": "default-src 'none'" };

const text = (body: string, status = 200) => new Response(body, { status, headers: TEXT });
const json = (value: unknown) => Response.json(value, { headers: { "x-content-type-options": "nosniff" } });
const param = (query: string, name: string) => (query === "" ? null : new URLSearchParams(query).get(name));

function parsed(body: Uint8Array): Record<string, unknown> | undefined {
  if (body.byteLength === 0 || body.byteLength > 64 * 1024) return undefined;
  try {
    const v = JSON.parse(Buffer.from(body).toString("utf8"));
    return v && typeof v === "object" && !Array.isArray(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

const short = (v: unknown): v is string => typeof v === "string" && v.length > 0 && v.length <= MAX_CHALLENGE;

/** The handler of a provider's handshake; `secret` and `verifyToken` are the guard's. */
export function createHandshake(kind: Handshake, keys: { secret?: string; verifyToken?: string }): HandshakeHandler {
  switch (kind) {
    case "meta": {
      const token = keys.verifyToken === undefined ? undefined : sha256Hex(keys.verifyToken);
      return {
        before({ method, query }) {
          if (method !== "GET" || param(query, "hub.mode") !== "subscribe") return undefined;
          const challenge = param(query, "hub.challenge");
          const given = param(query, "hub.verify_token") ?? "";
          if (!short(challenge)) return undefined;
          if (token === undefined || !constantTimeEqual(sha256Hex(given), token)) {
            return { response: text("hub.verify_token does not match the guard's verify_token", 403), what: "hub.challenge refused: wrong verify_token" };
          }
          return { response: text(challenge), what: "hub.challenge answered" };
        },
      };
    }
    case "x-crc":
      return {
        before({ method, query }) {
          const token = method === "GET" ? param(query, "crc_token") : null;
          // The answer is the HMAC that signs X's events, given to anyone: only a token's characters
          // are signed, never text that could be an event body.
          if (!short(token) || !CRC_TOKEN.test(token)) return undefined;
          const response_token = `sha256=${createHmac("sha256", keys.secret!).update(token).digest("base64")}`;
          return { response: json({ response_token }), what: "CRC answered" };
        },
      };
    case "dropbox":
      return {
        before({ method, query }) {
          const challenge = method === "GET" ? param(query, "challenge") : null;
          return short(challenge) ? { response: text(challenge), what: "challenge answered" } : undefined;
        },
      };
    case "microsoft-graph":
      return {
        before({ method, query }) {
          const token = method === "POST" ? param(query, "validationToken") : null;
          return short(token) ? { response: text(token), what: "validationToken answered" } : undefined;
        },
      };
    case "okta":
      return {
        after({ method, headers }) {
          const challenge = method === "GET" ? headers.get("x-okta-verification-challenge") : null;
          return short(challenge) ? { response: json({ verification: challenge }), what: "one-time verification answered" } : undefined;
        },
      };
    case "slack":
      return {
        after({ body }) {
          const b = parsed(body);
          return b?.type === "url_verification" && short(b.challenge)
            ? { response: json({ challenge: b.challenge }), what: "url_verification answered" }
            : undefined;
        },
      };
    case "zoom":
      return {
        after({ body }) {
          const b = parsed(body);
          const plainToken = (b?.payload as Record<string, unknown> | undefined)?.plainToken;
          if (b?.event !== "endpoint.url_validation" || !short(plainToken)) return undefined;
          const encryptedToken = createHmac("sha256", keys.secret!).update(plainToken).digest("hex");
          return { response: json({ plainToken, encryptedToken }), what: "endpoint.url_validation answered" };
        },
      };
    case "discord":
      return {
        after({ body }) {
          return parsed(body)?.type === 1 ? { response: json({ type: 1 }), what: "PING answered with PONG" } : undefined;
        },
      };
    case "twitch":
      return {
        after({ headers, body }) {
          if (headers.get("twitch-eventsub-message-type") !== "webhook_callback_verification") return undefined;
          const challenge = parsed(body)?.challenge;
          return short(challenge) ? { response: text(challenge), what: "webhook_callback_verification answered" } : undefined;
        },
      };
  }
}
