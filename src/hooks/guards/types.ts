import type { Diagnosis } from "./diagnosis";
import type { EventTypeRule } from "../event-type";

/** A request as a handshake sees it (hooks/handshakes.ts), and its answer. */
export type HandshakeRequest = { method: string; query: string; headers: Headers; body: Uint8Array };
export type HandshakeAnswer = { response: Response; what: string };
export type HandshakeHandler = {
  before?(r: Omit<HandshakeRequest, "body">): HandshakeAnswer | undefined;
  after?(r: HandshakeRequest): HandshakeAnswer | undefined | Promise<HandshakeAnswer | undefined>;
};

/** A guard: a named check every hook of a channel must pass to be caught. */

export type GuardInput = {
  method: string;
  /** Raw query string without the leading `?`. */
  query: string;
  headers: Headers;
  /** The exact body bytes. */
  body: Uint8Array;
  /** Sender ip, already resolved through trust_proxy. */
  ip: string;
  /** The request's URL as received (schemes that sign the URL put `[server] public_url` in front of its path). */
  url?: string;
};

export type GuardVerdict =
  | { ok: true }
  /** `reason` is shown to the sender: it never contains a secret or an expected signature. */
  | {
      ok: false;
      status: 401 | 403 | 405 | 413 | 415;
      reason: string;
      /** Headers the refusal should carry: `WWW-Authenticate` with 401, `Allow` with 405. */
      headers?: Record<string, string>;
    };

export interface Guard {
  readonly name: string;
  readonly kind: string;
  /**
   * Whether passing this guard authenticates the sender (a signature, a token, a password, a
   * certificate): a property of the guard's kind. A hook caught through at least one such guard is
   * `verified` (hooks/catch.ts records it); ip-allow, method, content-type and max-body only filter.
   */
  readonly authenticates: boolean;
  /** A body size limit below [hooks] max_body; the catching endpoint enforces it while reading. */
  readonly maxBody?: number;
  /** Headers (lower-case) and query parameters that carry this guard's secret: stored redacted. */
  readonly secretHeaders?: readonly string[];
  readonly secretQuery?: readonly string[];
  /**
   * Headers (lower-case) that carry this guard's signature: kept with a refusal for its diagnosis
   * (even Authorization, when that is where the signature is), never shown (hooks/redact.ts).
   */
  readonly signatureHeaders?: readonly string[];
  /**
   * Judges only the method, query, headers and sender ip: the catching endpoint runs it before it
   * reads the body, so a refused sender cannot make it buffer one (its input's body is then empty).
   */
  readonly beforeBody?: boolean;
  /** Where the provider a preset checks puts its event type (hooks/event-type.ts). */
  readonly eventType?: EventTypeRule;
  /** The provider's challenge, answered at the catching endpoint (hooks/handshakes.ts). */
  readonly handshake?: HandshakeHandler;
  check(input: GuardInput): GuardVerdict | Promise<GuardVerdict>;
}

/**
 * What a record of the refusals is: a request refused, or a provider's handshake (Slack's
 * url_verification, Discord's PING, Meta's hub.challenge...) answered with a 2xx, kept beside the
 * refusals since it is not a hook either. A handshake refused (a wrong verify_token) is "refused".
 */
export const REFUSAL_KINDS = ["refused", "handshake"] as const;
export type RefusalKind = (typeof REFUSAL_KINDS)[number];

/**
 * One refused request, as listed by the management interface: by a guard (`guard` names it), or
 * by the catching endpoint itself (`guard` is ""): a bad channel name or a GET with a body (400),
 * a body over the limit (413), a paused or misconfigured channel (503). Or a handshake answered
 * (`kind` "handshake").
 */
export type RefusalInput = {
  kind: RefusalKind;
  /** Its public id, a lowercase ULID ("" for refusals stored before ids were kept). */
  id: string;
  channel: string;
  guard: string;
  status: number;
  reason: string;
  ip: string;
  method: string;
  /** The request's query string and headers, secrets redacted (hooks/redact.ts). */
  query: string;
  headers: Record<string, string>;
  /**
   * A signature guard's 401: the request as the guard saw it, kept in memory only until the
   * refusal is written (its diagnosis is worked out from it first), never stored.
   */
  request?: GuardInput;
  /** Set once known: the stream sends the refusal again with it (docs/diagnoses.md). */
  diagnosis?: Diagnosis | null;
};

/**
 * One stored refusal; `createdAt` in ms since the epoch. `diagnosis`: why a signature guard refused
 * it (diagnose/), null for every other refusal (and those stored before diagnoses).
 */
export type Refusal = Omit<RefusalInput, "request"> & { createdAt: number; diagnosis: Diagnosis | null };
