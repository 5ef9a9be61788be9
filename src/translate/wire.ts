import { toRfc3339 } from "../lib/clock";
import type { AccountRow, CommentRow, LedgerRow, OrderRow } from "./contract";
import { toDollars } from "./money";
import type { Revision } from "./model";

/**
 * Storage rows to the spec's resources, in one place. Timestamps are ISO 8601 UTC; money is
 * dollars; `accepted_at`, `completed_at` and `target_text` appear once they exist.
 */
const iso = (ms: number | null) => (ms === null ? undefined : toRfc3339(ms));

export const accountOut = (a: AccountRow) => ({
  id: a.id,
  balance_overdraft_allowed: a.overdraft,
  reserved: toDollars(a.reserved),
  balance: toDollars(a.balance),
});

export const summaryOut = (o: OrderRow) => ({
  id: o.id,
  status: o.status,
  snippet: o.snippet,
  source_language: o.sourceLanguage,
  target_language: o.targetLanguage,
  created_at: iso(o.createdAt),
  accepted_at: iso(o.acceptedAt),
  completed_at: iso(o.completedAt),
});

/** Revision A also shows the resource and, once the order was completed, its translator. */
export const resourceOut = (o: Pick<OrderRow, "resourceType" | "resourceMetadata" | "sourceText">) => ({
  type: o.resourceType,
  ...(o.resourceMetadata === null ? {} : { metadata: o.resourceMetadata }),
  data: o.sourceText,
});

export const orderOut = (o: OrderRow, comments: CommentRow[], revision: Revision) => ({
  id: o.id,
  ...(revision === "A" ? { resource: resourceOut(o) } : {}),
  source_text: o.sourceText,
  target_text: o.targetText ?? undefined,
  status: o.status,
  source_language: o.sourceLanguage,
  target_language: o.targetLanguage,
  volume: o.volume,
  price: toDollars(o.price),
  context: {
    ...(o.tone === null ? {} : { tone: o.tone }),
    ...(o.limit === null ? {} : { limit: o.limit }),
    ...(o.category === null ? {} : { category: o.category }),
  },
  comments: comments.map((c) => ({
    id: c.id,
    time: toRfc3339(c.createdAt),
    role: c.role,
    text: c.text,
    attachments: c.attachments.map((a) => ({ image: a.data, type: a.type, name: a.name, weight: a.weight, size: a.size })),
  })),
  created_at: iso(o.createdAt),
  accepted_at: iso(o.acceptedAt),
  completed_at: iso(o.completedAt),
  ...(revision === "A" && o.completedAt !== null && o.translator !== null ? { translator: o.translator } : {}),
});

export const translateOut = (orders: OrderRow[], revision: Revision) => {
  const first = orders[0]!;
  return {
    text: first.sourceText,
    ...(revision === "A" ? { resource: resourceOut(first) } : {}),
    volume: first.volume,
    orders: orders.map((o) => ({
      id: o.id,
      source_language: o.sourceLanguage,
      target_language: o.targetLanguage,
      price: toDollars(o.price),
      created_at: iso(o.createdAt),
    })),
  };
};

export const ledgerOut = (l: LedgerRow) => ({
  id: l.id,
  entry: l.entry,
  order_id: l.orderId ?? undefined,
  balance_change: toDollars(l.balanceDelta),
  reserved_change: toDollars(l.reservedDelta),
  balance: toDollars(l.balanceAfter),
  reserved: toDollars(l.reservedAfter),
  actor: l.actor,
  time: toRfc3339(l.createdAt),
});
