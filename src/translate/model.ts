import { Type as t } from "@sinclair/typebox";
import { ORDER_STATUSES } from "../schema/sqlite/translate";
import { queryIntegerSchema } from "../lib/query-int";
import { PAGE, PAGE_ERROR, PER_PAGE, PER_PAGE_ERROR } from "./check";

/**
 * Request models of the three APIs. Language codes, resource types and image types are plain
 * strings here and checked by the service, so they answer their own 400 codes
 * (LANGUAGE_NOT_FOUND, UNSUPPORTED_RESOURCE_TYPE, INVALID_ATTACHMENT) instead of INVALID_REQUEST.
 * Plain TypeBox, not Elysia's `t` (whose Integer, Number and Boolean also take strings), checked by
 * check.ts, never through Elysia's `body`/`query` options (see there why).
 */
const strict = { additionalProperties: false } as const;
const lit = <T extends string>(values: readonly T[]) => t.Union(values.map((v) => t.Literal(v)));

export const TONES = ["FORMAL", "INFORMAL", "GUESS"] as const;
export const CATEGORIES = [
  "APPS",
  "CRYPTO",
  "CASINO",
  "LEGAL",
  "E_COMMERCE",
  "FINANCE",
  "GAMES",
  "GENERAL",
  "MEDIA",
  "MEDICAL",
  "SCIENCE",
  "IT",
  "TRAVEL",
] as const;

const Code = t.String({ maxLength: 16 });
const Targets = t.Array(Code, { minItems: 1, maxItems: 61, uniqueItems: true });
const Context = t.Object(
  { tone: t.Optional(lit(TONES)), limit: t.Optional(t.Integer({ minimum: 1, maximum: 1_000_000_000 })), category: t.Optional(lit(CATEGORIES)) },
  strict,
);
const Attachment = t.Object({ type: t.String({ maxLength: 100 }), data: t.String() }, strict);
const Attachments = t.Array(Attachment, { maxItems: 20 });
const Comment = t.Object({ text: t.Optional(t.String({ maxLength: 100_000 })), attachments: t.Optional(Attachments) }, strict);
const ResourceA = t.Object({ type: t.String({ maxLength: 100 }), metadata: t.Optional(t.String({ maxLength: 10_000 })), data: t.String() }, strict);
const ResourceB = t.Object({ type: t.String({ maxLength: 100 }), data: t.String() }, strict);

const translate = (resource: typeof ResourceA | typeof ResourceB) =>
  t.Object(
    {
      source_language: Code,
      target_languages: Targets,
      text: t.Optional(t.String()),
      resource: t.Optional(resource),
      context: t.Optional(Context),
      comment: t.Optional(Comment),
    },
    strict,
  );
export const TranslateA = translate(ResourceA);
export const TranslateB = translate(ResourceB);
export const CalculateA = t.Object({ source_language: Code, target_languages: Targets, resource: ResourceA }, strict);

/** Query numbers are decimal digits as sent (no coercion); check.ts pageOf() reads them and checks the range. */
const Page = t.Optional(queryIntegerSchema(PAGE, PAGE_ERROR));
const PerPage = t.Optional(queryIntegerSchema(PER_PAGE, PER_PAGE_ERROR));
export const OrdersQueryA = t.Object({ sort: t.Optional(lit(["asc", "desc"] as const)), page: Page, per_page: PerPage }, strict);
export const OrdersQueryB = t.Object({ page: Page, per_page: PerPage }, strict);

export const TranslatorOrdersQuery = t.Object({ status: t.Optional(lit(ORDER_STATUSES)), page: Page, per_page: PerPage }, strict);
export const CompleteBody = t.Object({ target_text: t.String({ minLength: 1 }) }, strict);
export const CommentBody = t.Object({ text: t.String({ maxLength: 100_000 }), attachments: t.Optional(Attachments) }, strict);

export const TopUpBody = t.Object({ amount: t.Number({ exclusiveMinimum: 0, maximum: 1e9 }) }, strict);
export const BalanceBody = t.Object({ balance: t.Number({ minimum: -1e9, maximum: 1e9 }) }, strict);
export const CreateAccountBody = t.Object(
  {
    balance: t.Optional(t.Number({ minimum: -1e9, maximum: 1e9, description: "opening balance in US dollars (default 0)" })),
    overdraft: t.Optional(t.Boolean({ description: "balance_overdraft_allowed (default false)" })),
  },
  strict,
);
export const OverdraftBody = t.Object({ allowed: t.Boolean() }, strict);
export const ReopenBody = t.Object({ comment: t.Optional(t.String({ maxLength: 100_000 })) }, strict);

export type Revision = "A" | "B";
export type AttachmentIn = { type: string; data: string };
export type ContextIn = { tone?: (typeof TONES)[number]; limit?: number; category?: (typeof CATEGORIES)[number] };
