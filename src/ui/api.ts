import type { HookStatus } from "../hooks/status";

/** The dashboard's JSON endpoints (/ui/api); every call carries the session cookie. */

/**
 * The webhook service's resources are the published test helper's types, which
 * test/testing/types.test.ts holds equal to the server's TypeBox models; the dashboard's own
 * shapes below are held to theirs by test/dashboard/wire-types.test.ts.
 */
export type { Channel, Hook, HookEvent, HookExtended, Refusal } from "../testing/types";
export type Status = HookStatus;
export type Attempt = {
  handler: string;
  attempt: number;
  outcome: string;
  due_at: string;
  http_status: number | null;
  exit_code: number | null;
  excerpt: string;
  error: string;
  /** The provider kind a forward re-signed as; null when sent as caught. */
  resigned: string | null;
  /** What delivery chaos did ("duplicate", "delay,duplicate"); null when nothing. */
  chaos: string | null;
};
/** An alerts' notifier (GET /ui/api/notifiers; notify/routes.ts Notifier): where it sends, without secrets. */
export type NotifierInfo = {
  name: string;
  kind: "slack" | "discord" | "teams" | "webhook" | "email";
  target: string;
  queued: number;
  sent: number;
  failed: number;
  last_error: string | null;
  last_error_at: string | null;
};
/** An alert rule (GET /ui/api/alerts; alerts/rule-model.ts AlertRule): the keys of an [[alerts]] entry, and where it comes from. */
export type AlertRuleInfo = {
  name: string;
  kind: "silence" | "refusals" | "handler" | "new_event_type" | "rate" | "relay";
  channels: string[];
  query?: string;
  event_types?: string[];
  for?: string;
  threshold?: number;
  window?: string;
  schedule?: string;
  reasons?: string[];
  handlers?: string[];
  notify: string[];
  repeat?: string;
  source: "config" | "api";
  created_by: string | null;
  created_at: string | null;
  updated_by: string | null;
  updated_at: string | null;
};
/** A handler and its delivery state (GET /ui/api/handlers; delivery/handler-routes.ts HandlerInfo). */
export type HandlerInfo = {
  name: string;
  kind: string;
  channels: string[];
  state: "active" | "paused" | "breaker_open" | "breaker_half_open";
  rate: string | null;
  breaker: { state: string; failures: number; threshold: number; cool_down: string; reopens_at: string | null } | null;
  waiting: number;
};
export type Me = { email: string; role: "admin" | "member"; auth?: "none" };
/** The server's own type (it imports nothing), so the two cannot drift. */
export type { ApiKeyInfo as ApiKey } from "../hooks/api-key-info";
/** `channels`: a member limited to them (glob patterns); absent, every channel. */
export type User = { email: string; role: "admin" | "member"; read_only: boolean; created_at: string | null; channels?: string[] };

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** Calls /ui/api; throws ApiError with the server's message. 401 sends the user to sign in. */
export async function api<T>(method: string, path: string, body?: unknown): Promise<T> {
  const text = await (await request(method, path, body)).text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/**
 * Calls /ui/api and answers its response, unread, when it is a success (api() reads it as JSON; an
 * export is read as a file); else throws ApiError with the server's message. 401 sends the user to
 * sign in.
 */
export async function request(method: string, path: string, body?: unknown): Promise<Response> {
  const init: RequestInit = { method, credentials: "same-origin", headers: {} };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    (init.headers as Record<string, string>)["content-type"] = "application/json";
  }
  const res = await fetch(`/ui/api${path}`, init);
  if (res.ok) return res;
  if (res.status === 401 && onSignedOut && !path.startsWith("/session") && !path.startsWith("/setup")) onSignedOut();
  const text = await res.text();
  let message: unknown;
  try {
    message = text ? JSON.parse(text)?.message : undefined;
  } catch {
    // Not the API's error body (a proxy's page): the status says it.
  }
  throw new ApiError(res.status, typeof message === "string" ? message : `HTTP ${res.status}`);
}

let onSignedOut: (() => void) | undefined;
export function whenSignedOut(fn: () => void): void {
  onSignedOut = fn;
}

export function query(params: Record<string, string | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v) q.set(k, v);
  const s = q.toString();
  return s ? `?${s}` : "";
}

/** The translation service as the dashboard shows it (/ui/api/translate). Money is US dollars. */
export type TAccount = { id: number; balance: number; reserved: number; balance_overdraft_allowed: boolean };
export type TLedgerEntry = {
  id: number;
  entry: string;
  order_id?: number;
  balance_change: number;
  reserved_change: number;
  balance: number;
  reserved: number;
  actor: string;
  time: string;
};
export type TOrderSummary = {
  id: number;
  status: string;
  snippet: string;
  source_language: string;
  target_language: string;
  price?: number;
  volume?: number;
  translator?: string;
  created_at: string;
  accepted_at?: string;
  completed_at?: string;
};
export type TAccountDetail = { account: TAccount; consistent: boolean; entries: TLedgerEntry[]; orders: TOrderSummary[] };
export type TOrder = {
  id: number;
  account_id: number;
  status: string;
  source_text: string;
  target_text?: string;
  source_language: string;
  target_language: string;
  volume: number;
  price: number;
  translator?: string;
  resource: { type: string; metadata?: string; data: string };
  context: Record<string, string | number>;
  comments: { id: number; time: string; role: string; text: string }[];
  created_at: string;
  accepted_at?: string;
  completed_at?: string;
};
