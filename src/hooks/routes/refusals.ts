import { Elysia, t } from "elysia";
import { NAME_PATTERN } from "../../config/schema";
import { toRfc3339 } from "../../lib/clock";
import { invalid } from "../../lib/errors";
import { queryInt, queryIntegerSchema } from "../../lib/query-int";
import { REFUSALS_KEPT } from "../guards";
import { ErrorBody } from "../model";
import type { ManagementDeps } from "./deps";

const strict = { additionalProperties: false } as const;
const name = (what: string) =>
  t.Optional(t.String({ maxLength: 64, pattern: NAME_PATTERN, error: `${what}: must be a ${what} name of at most 64 characters` }));
const LIMIT_ERROR = `limit: must be an integer from 1 to ${REFUSALS_KEPT}`;
const LIMIT = { min: 1, max: REFUSALS_KEPT, fallback: 50 };
const listQuery = t.Object(
  {
    channel: name("channel"),
    guard: name("guard"),
    limit: t.Optional(queryIntegerSchema(LIMIT, LIMIT_ERROR)),
  },
  strict,
);

/** A request a guard refused: not a hook, since it was never caught. */
export const Refusal = t.Object(
  {
    channel: t.String(),
    guard: t.String(),
    status: t.Integer(),
    reason: t.String(),
    created_at: t.String(),
    ip: t.String(),
    method: t.String(),
  },
  strict,
);

/**
 * GET /v1/refusals: the most recent requests refused by a guard, newest first, so that a user can
 * see why a provider's delivery was not caught. `channel` and `guard` filter; `limit` defaults to 50.
 */
export function refusalRoutes({ auth, refusals }: ManagementDeps) {
  return new Elysia().use(auth).get(
    "/refusals",
    async ({ query }) =>
      (
        await refusals.list({ channel: query.channel, guard: query.guard, limit: queryInt(query.limit, LIMIT, () => invalid(`invalid query: ${LIMIT_ERROR}`)) })
      ).map((r) => ({
        channel: r.channel,
        guard: r.guard,
        status: r.status,
        reason: r.reason,
        created_at: toRfc3339(r.createdAt),
        ip: r.ip,
        method: r.method,
      })),
    { query: listQuery, response: { 200: t.Array(Refusal), 400: ErrorBody, 401: ErrorBody } },
  );
}
