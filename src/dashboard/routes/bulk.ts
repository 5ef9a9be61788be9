import { Elysia, t } from "elysia";
import { NAME_PATTERN } from "../../config/schema";
import { ErrorBody, hookStatusSchema } from "../../hooks/model";
import { BULK_FROM, type BulkAction } from "../../hooks/service";
import { HOOK_STATUSES, listOr, type HookStatus } from "../../hooks/status";
import { invalid } from "../../lib/errors";
import type { BulkDeps } from "../bulk";
import { createBulk } from "../bulk";

const strict = { additionalProperties: false } as const;
const Action = t.Union([t.Literal("retry"), t.Literal("discard")], { error: "action: must be retry or discard" });
const Status = hookStatusSchema({ error: `status: must be ${listOr(HOOK_STATUSES)}` });
const Channel = t.String({ maxLength: 64, pattern: NAME_PATTERN, error: "channel: must be a channel name" });
const Id = t.String({ pattern: "^[0-9a-hjkmnp-tv-z]{26}$", error: "until: must be a hook id" });
const Filter = { channel: t.Optional(Channel), status: Status };
const Count = t.Object(
  { action: Action, channel: t.Union([t.String(), t.Null()]), status: Status, count: t.Integer(), until: t.Union([t.String(), t.Null()]) },
  strict,
);
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody };

function checkStatus(action: BulkAction, status: HookStatus): void {
  if (!BULK_FROM[action].includes(status)) throw invalid(`status: ${action} applies to ${BULK_FROM[action].join(" or ")} hooks`);
}

/**
 * Bulk actions over the hooks screen's filter, in two steps so that the page can say how many
 * hooks it will touch and ask first: GET counts them and names the newest (`until`); POST with
 * that `until` acts on them and on none caught since.
 */
export function bulkRoutes(deps: BulkDeps) {
  const bulk = createBulk(deps);
  return new Elysia()
    .use(deps.auth)
    .get(
      "/bulk/:action",
      async ({ params, query }) => {
        checkStatus(params.action, query.status);
        return { action: params.action, channel: query.channel ?? null, status: query.status, ...(await bulk.count(query.channel, query.status)) };
      },
      { params: t.Object({ action: Action }, strict), query: t.Object(Filter, strict), response: { 200: Count, ...errors } },
    )
    .post(
      "/bulk/:action",
      async ({ params, body, actor }) => {
        checkStatus(params.action, body.status);
        return { count: await bulk.apply(params.action, body.channel, body.status, body.until, actor) };
      },
      {
        params: t.Object({ action: Action }, strict),
        body: t.Object({ ...Filter, until: Id }, strict),
        response: { 200: t.Object({ count: t.Integer() }, strict), ...errors },
      },
    );
}
