import { t } from "elysia";
import { LEDGER_ENTRIES, ORDER_STATUSES } from "../schema/sqlite/translate";
import { CATEGORIES, TONES } from "../translate/model";

/**
 * What the translation APIs answer, as TypeBox models. The routes build these bodies with the
 * mappers of translate/wire.ts and do not validate them on the way out (that would cost every
 * response a check); test/openapi/responses.test.ts validates real responses of every route
 * against these, so the two cannot drift apart unnoticed.
 */
const strict = { additionalProperties: false } as const;
const lit = <T extends string>(values: readonly T[]) => t.Union(values.map((v) => t.Literal(v)));
const Timestamp = t.String({ format: "date-time" });
const Dollars = t.Number({ description: "US dollars" });

export const Account = t.Object({ id: t.Integer(), balance_overdraft_allowed: t.Boolean(), reserved: Dollars, balance: Dollars }, strict);

/** POST /admin/v1/accounts: the new account and its API key, shown only in this answer. */
export const CreatedAccount = t.Object(
  { ...Account.properties, api_key: t.String({ description: "the account's API key; only its hash is stored, so it is shown once" }) },
  strict,
);

/** POST /admin/v1/simulator/complete-now */
export const CompletedNow = t.Object({ completed: t.Array(t.Integer(), { description: "ids of the orders the simulator completed" }) }, strict);

export const OrderStatus = lit(ORDER_STATUSES);

export const OrderSummary = t.Object(
  {
    id: t.Integer(),
    status: OrderStatus,
    snippet: t.String({ description: "the beginning of the source text" }),
    source_language: t.String(),
    target_language: t.String(),
    created_at: Timestamp,
    accepted_at: t.Optional(Timestamp),
    completed_at: t.Optional(Timestamp),
  },
  strict,
);

export const ResourceA = t.Object({ type: t.String(), metadata: t.Optional(t.String()), data: t.String() }, strict);

export const CommentAttachment = t.Object(
  {
    image: t.String({ description: "base64 of the image" }),
    type: t.String({ description: "image MIME type" }),
    name: t.String(),
    weight: t.Integer({ description: "bytes" }),
    size: t.String({ pattern: "^[0-9]+x[0-9]+$", description: "<width>x<height>" }),
  },
  strict,
);

export const OrderComment = t.Object(
  {
    id: t.Integer(),
    time: Timestamp,
    role: lit(["CUSTOMER", "TRANSLATOR", "ADMIN"] as const),
    text: t.String(),
    attachments: t.Array(CommentAttachment),
  },
  strict,
);

const Context = t.Object({ tone: t.Optional(lit(TONES)), limit: t.Optional(t.Integer()), category: t.Optional(lit(CATEGORIES)) }, strict);

const orderFields = {
  id: t.Integer(),
  source_text: t.String(),
  target_text: t.Optional(t.String({ description: "the translation, once there is one" })),
  status: OrderStatus,
  source_language: t.String(),
  target_language: t.String(),
  volume: t.Integer({ description: "characters of translatable text" }),
  price: Dollars,
  context: Context,
  comments: t.Array(OrderComment),
  created_at: Timestamp,
  accepted_at: t.Optional(Timestamp),
  completed_at: t.Optional(Timestamp),
};

/** Revision A's order (also what the translator and admin APIs show): with its resource and, once completed, its translator. */
export const OrderA = t.Object({ ...orderFields, resource: ResourceA, translator: t.Optional(t.String({ description: "who completed it" })) }, strict);
export const OrderB = t.Object(orderFields, strict);

const PlacedOrder = t.Object({ id: t.Integer(), source_language: t.String(), target_language: t.String(), price: Dollars, created_at: Timestamp }, strict);
export const PlacedOrders = t.Object({ text: t.String(), resource: ResourceA, volume: t.Integer(), orders: t.Array(PlacedOrder) }, strict);
export const PlacedOrdersB = t.Object({ text: t.String(), volume: t.Integer(), orders: t.Array(PlacedOrder) }, strict);

export const Rate = t.Object({ source_language: t.String(), target_language: t.String(), rate: Dollars }, strict);

export const Price = t.Object({ source_language: t.String(), target_language: t.String(), volume: t.Integer(), price: Dollars }, strict);

export const LedgerEntry = t.Object(
  {
    id: t.Integer(),
    entry: lit(LEDGER_ENTRIES),
    order_id: t.Optional(t.Integer()),
    balance_change: Dollars,
    reserved_change: Dollars,
    balance: Dollars,
    reserved: Dollars,
    actor: t.String(),
    time: Timestamp,
  },
  strict,
);

export const Ledger = t.Object(
  {
    account: Account,
    consistent: t.Boolean({ description: "balance and reserved equal the ledger's sums and the unpaid orders" }),
    ledger_balance: Dollars,
    ledger_reserved: Dollars,
    unpaid_orders: Dollars,
    entries: t.Array(LedgerEntry),
  },
  strict,
);

/** The one error body of the translation APIs, for every error status. */
export const TranslateError = t.Object(
  {
    code: t.String(),
    description: t.String(),
    parameters: t.Record(t.String(), t.String(), { description: "error-specific details, as strings" }),
  },
  strict,
);
