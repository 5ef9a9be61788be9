/**
 * The wire shapes the helper's clients answer, written out as plain types so that the published
 * declarations need nothing but this folder and hooks/status.ts (which imports nothing).
 * test/testing/types.test.ts checks at type level that each equals `Static<typeof Model>` of the
 * TypeBox model the server uses, so they cannot drift.
 */
import type { EventKind, HookStatus } from "../hooks/status";

export type { HookStatus };

export type ChannelStats = { pending: string; handled: string; failed: string; discarded: string };
export type Channel = { name: string; paused: boolean; stats: ChannelStats; guards: string[] };

export type HookEvent = { kind: EventKind; actor: string; message: string; created_at: string };

export type Hook = {
  id: string;
  channel: string;
  status: HookStatus;
  method: string;
  query: string;
  headers: Record<string, string>;
  content_type: string;
  /** The body, base64. */
  body: string;
  /** The body parsed as JSON (or form fields), when it was an object. */
  payload?: Record<string, unknown> | null;
  ip: string;
  created_at: string;
  finalized_at?: string | null;
  events: HookEvent[];
};

/** A Hook with Mailroom's extension fields: what `include=extensions`, the live stream and waitForHook answer. */
export type HookExtended = Hook & {
  /** The sender's event type (`push`, `pull_request.opened`, `invoice.paid`); empty when unknown. */
  event_type: string;
  /** The hook this one was made from (edit and send). */
  source_id?: string;
  /** Its tags, sorted (docs/tags.md); absent when it has none. */
  tags?: string[];
  /** Whether a guard that authenticates the sender passed when it was caught; absent when unknown (docs/delivery.md). */
  verified?: boolean;
  /** Its contract check, once done (docs/contracts.md). */
  contract?: {
    result: "valid" | "invalid" | "unknown" | "none";
    violations: { path: string; message: string }[];
    new_type: boolean;
    new_field: boolean;
  };
};

/** One handler attempt (GET /v1/hooks/{id}/attempts). */
export type Attempt = {
  handler: string;
  /** 1, 2, ... per handler, counted across RetryHook rounds. */
  attempt: number;
  /** failed: another attempt follows; gave_up: the handler stopped and the hook failed; skipped: the handler's `when` does not want the hook. */
  outcome: "queued" | "running" | "succeeded" | "failed" | "gave_up" | "cancelled" | "skipped";
  due_at: string;
  started_at: string | null;
  finished_at: string | null;
  /** forward: the app's answer. */
  http_status: number | null;
  /** command: the program's exit code. */
  exit_code: number | null;
  excerpt: string;
  error: string;
  /** forward: the provider kind the request was re-signed as (never the secret); null when sent as caught. */
  resigned: string | null;
  /** forward: what delivery chaos did ("duplicate", "burst,delay"); null when nothing. */
  chaos: string | null;
};

/** A request a guard refused, or a provider's handshake answered (GET /v1/refusals): never stored as a hook. */
export type Refusal = {
  id: string;
  /** "refused", or "handshake": a provider's challenge answered with a 2xx. */
  kind: "refused" | "handshake";
  channel: string;
  guard: string;
  status: number;
  reason: string;
  created_at: string;
  ip: string;
  method: string;
  query: string;
  headers: Record<string, string>;
  /** Why a signature guard refused it (docs/diagnoses.md); null for every other refusal. */
  diagnosis: Diagnosis | null;
};

/** Why a signature failed: `cause` says which known cause explains it, `message` says it in a sentence. */
export type Diagnosis = {
  cause: "wrong_secret" | "body_changed" | "clock_skew" | "wrong_url" | "encoding" | "unknown" | "skipped";
  message: string;
  guard?: string;
  skew_seconds?: number;
  direction?: "past" | "future";
  url?: string;
  change?: string;
  tried: string[];
};

/** The management API's error body. */
export type ErrorBody = { code: number; message: string; details: unknown[] };

export type Account = { id: number; balance_overdraft_allowed: boolean; reserved: number; balance: number };
export type CreatedAccount = Account & { api_key: string };

export type OrderStatus = "QUEUE" | "PROGRESS" | "DONE" | "REVISION";
export type Tone = "FORMAL" | "INFORMAL" | "GUESS";
export type Category =
  | "APPS"
  | "CRYPTO"
  | "CASINO"
  | "LEGAL"
  | "E_COMMERCE"
  | "FINANCE"
  | "GAMES"
  | "GENERAL"
  | "MEDIA"
  | "MEDICAL"
  | "SCIENCE"
  | "IT"
  | "TRAVEL";

export type OrderSummary = {
  id: number;
  status: OrderStatus;
  snippet: string;
  source_language: string;
  target_language: string;
  created_at: string;
  accepted_at?: string;
  completed_at?: string;
};

export type CommentAttachment = { image: string; type: string; name: string; weight: number; size: string };
export type OrderComment = { id: number; time: string; role: "CUSTOMER" | "TRANSLATOR" | "ADMIN"; text: string; attachments: CommentAttachment[] };
export type OrderContext = { tone?: Tone; limit?: number; category?: Category };

export type OrderB = {
  id: number;
  source_text: string;
  target_text?: string;
  status: OrderStatus;
  source_language: string;
  target_language: string;
  volume: number;
  price: number;
  context: OrderContext;
  comments: OrderComment[];
  created_at: string;
  accepted_at?: string;
  completed_at?: string;
};
export type ResourceA = { type: string; metadata?: string; data: string };
/** Revision A's order; the translator and admin APIs answer this shape too. */
export type OrderA = OrderB & { resource: ResourceA; translator?: string };

export type PlacedOrder = { id: number; source_language: string; target_language: string; price: number; created_at: string };
export type PlacedOrdersA = { text: string; resource: ResourceA; volume: number; orders: PlacedOrder[] };
export type PlacedOrdersB = { text: string; volume: number; orders: PlacedOrder[] };
export type Rate = { source_language: string; target_language: string; rate: number };
export type Price = { source_language: string; target_language: string; volume: number; price: number };

export type LedgerEntry = {
  id: number;
  entry: "opening" | "top_up" | "set_balance" | "reserve" | "release" | "spend";
  order_id?: number;
  balance_change: number;
  reserved_change: number;
  balance: number;
  reserved: number;
  actor: string;
  time: string;
};
export type Ledger = {
  account: Account;
  consistent: boolean;
  ledger_balance: number;
  ledger_reserved: number;
  unpaid_orders: number;
  entries: LedgerEntry[];
};

type AttachmentIn = { type: string; data: string };
type TranslateFields = {
  source_language: string;
  target_languages: string[];
  text?: string;
  context?: OrderContext;
  comment?: { text?: string; attachments?: AttachmentIn[] };
};
export type TranslateRequestA = TranslateFields & { resource?: ResourceA };
export type TranslateRequestB = TranslateFields & { resource?: { type: string; data: string } };
export type CalculateRequest = { source_language: string; target_languages: string[]; resource: ResourceA };

/** The translation APIs' one error body. */
export type TranslateErrorBody = { code: string; description: string; parameters: Record<string, string> };
