import type { ManagementClient } from "./management";
import type { Attempt } from "./types";

/**
 * How the helper's server forwards to the app under test: the flags of `mailroom serve` (see
 * docs/cli.md). Re-signing and chaos are passed on as `--resign KIND --secret S` and
 * `--chaos 'k=v,...'`: a server that does not know them refuses to start, saying so.
 */
export type ForwardOptions = {
  /**
   * Where caught hooks go: one URL (`serve --forward-to URL`), or routes by event type tried in
   * order, first match wins (`serve --forward PATTERN=URL`...): `[["invoice.*", billing], ["*", rest]]`.
   */
  forwardTo?: string | readonly (readonly [pattern: string, url: string])[];
  /** Only this channel's hooks are forwarded (`--channel`); every channel by default. */
  forwardChannel?: string;
  /** Sign what is forwarded as this provider would, with a fresh timestamp (`--resign KIND --secret S`). */
  resign?: { kind: string; secret: string };
  /** Misbehave towards the app on purpose (`--chaos`): `{ duplicate: 0.2, reorder: "2s", seed: 42 }` or the flag's text. */
  chaos?: string | Record<string, string | number>;
};

/** The `serve` flags of `options`; throws when resign or chaos are given without forwardTo. */
export function forwardFlags(options: ForwardOptions): string[] {
  const { forwardTo, forwardChannel, resign, chaos } = options;
  if (forwardTo === undefined) {
    if (resign || chaos || forwardChannel)
      throw new Error("mailroom-webhooks/testing: resign, chaos and forwardChannel apply to what forwardTo sends; give forwardTo");
    return [];
  }
  const flags = typeof forwardTo === "string" ? ["--forward-to", forwardTo] : forwardTo.flatMap(([pattern, url]) => ["--forward", `${pattern}=${url}`]);
  if (forwardChannel !== undefined) flags.push("--channel", forwardChannel);
  if (resign) flags.push("--resign", resign.kind, "--secret", resign.secret);
  if (chaos !== undefined)
    flags.push(
      "--chaos",
      typeof chaos === "string"
        ? chaos
        : Object.entries(chaos)
            .map(([k, v]) => `${k}=${v}`)
            .join(","),
    );
  return flags;
}

/** One attempt that was made: what the app answered (`http_status`, null when it could not be reached). */
export type DeliveryAttempt = Omit<Attempt, "handler" | "due_at"> & { outcome: "succeeded" | "failed" | "gave_up" };

/** What a handler sent of one hook, attempt by attempt, oldest first. */
export type Delivery = {
  hook_id: string;
  channel: string;
  event_type: string;
  handler: string;
  attempts: DeliveryAttempt[];
};

export type DeliveriesQuery = {
  channel?: string;
  /** One handler's deliveries (e.g. "forward-to"); every handler's by default. */
  handler?: string;
};

/** The outcomes of attempts that were made; queued, running, skipped and cancelled ones sent nothing. */
const MADE = new Set(["succeeded", "failed", "gave_up"]);

/**
 * What the server's handlers sent to the app: per hook (oldest first) and handler, every attempt
 * made, with the app's status and the chaos action when the API records one. Hooks a handler did
 * not want (`skipped`) or has not tried yet are left out.
 */
export async function listDeliveries(api: ManagementClient, q: DeliveriesQuery = {}): Promise<Delivery[]> {
  const hooks: { id: string; channel: string; event_type: string }[] = [];
  for (let after: string | undefined; ; ) {
    const page = await api.hooks.list({ channel: q.channel, limit: 100, after, include: "extensions" });
    hooks.push(...page);
    if (page.length < 100) break;
    after = page.at(-1)!.id;
  }
  const out: Delivery[] = [];
  for (const hook of hooks.reverse()) {
    const byHandler = new Map<string, DeliveryAttempt[]>();
    for (const { handler, due_at: _, ...a } of await api.hooks.attempts(hook.id)) {
      if (!MADE.has(a.outcome) || (q.handler !== undefined && handler !== q.handler)) continue;
      byHandler.set(handler, [...(byHandler.get(handler) ?? []), a as DeliveryAttempt]);
    }
    for (const [handler, attempts] of byHandler) out.push({ hook_id: hook.id, channel: hook.channel, event_type: hook.event_type, handler, attempts });
  }
  return out;
}
