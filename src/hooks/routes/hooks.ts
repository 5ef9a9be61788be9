import { Elysia, t } from "elysia";
import { NAME_PATTERN, NAME_RULE } from "../../config/schema";
import { invalid } from "../../lib/errors";
import { HOOK_ID_PATTERN } from "../../lib/ids";
import { queryInt, queryIntegerSchema } from "../../lib/query-int";
import { jsonArrayResponse } from "../../lib/json-stream";
import { Empty, ErrorBody, HookListOut, HookOut, hookStatusSchema, NoBody, NoQuery } from "../model";
import { HOOK_STATUSES } from "../status";
import type { ManagementDeps } from "./deps";

const strict = { additionalProperties: false } as const;
const hookId = t.String({ pattern: HOOK_ID_PATTERN, error: "id: must be a lowercase ULID (26 characters)" });
const params = t.Object({ id: hookId }, strict);
const LIMIT_ERROR = "limit: must be an integer from 1 to 100";
const LIMIT = { min: 1, max: 100, fallback: 50 };
const afterId = t.String({ pattern: HOOK_ID_PATTERN, error: "after: must be a hook id (a lowercase ULID)" });
const listQuery = t.Object(
  {
    channel: t.Optional(t.String({ maxLength: 64, pattern: NAME_PATTERN, error: `channel: channel names are ${NAME_RULE}, at most 64 characters` })),
    status: t.Optional(hookStatusSchema({ error: `status: must be one of ${HOOK_STATUSES.join(", ")}` })),
    limit: t.Optional(queryIntegerSchema(LIMIT, LIMIT_ERROR)),
    after: t.Optional(afterId),
    event_type: t.Optional(
      t.String({
        minLength: 1,
        maxLength: 129,
        error: "event_type: must be an event type of 1 to 128 characters, or a prefix followed by *",
        description:
          "Extension: only hooks of this event type (`push`, `invoice.paid`); a trailing `*` matches every type starting with what precedes it (`invoice.*`)",
      }),
    ),
    fields: t.Optional(
      t.Literal("summary", {
        error: "fields: must be summary",
        description: "Hooks without body, payload, headers and events, with `size` (bytes of the body): what a list needs, read without the bodies",
      }),
    ),
  },
  strict,
);
const failBody = t.Object({ message: t.String({ maxLength: 4096, error: "message: must be a string of at most 4096 characters" }) }, strict);
// What each route can answer besides 200 (the OpenAPI documents list these): a list never 404s,
// and only a transition can conflict with the hook's status.
const listErrors = { 400: ErrorBody, 401: ErrorBody };
const hookErrors = { ...listErrors, 404: ErrorBody };
const errors = { ...hookErrors, 409: ErrorBody };

/** HookService_*: list (newest first, `after` paging), get, delete, discard, retry, and the consumer operations. */
export function hookRoutes({ auth, hooks }: ManagementDeps) {
  return (
    new Elysia()
      .use(auth)
      // Answered as it is read, one hook after another: a page of large hooks is never whole in
      // memory, and catching goes on between them. A hook deleted meanwhile is left out.
      .get(
        "/hooks",
        async ({ query }) => {
          const { fields, event_type, ...filter } = query;
          const ids = await hooks.listIds({
            ...filter,
            eventType: event_type,
            limit: queryInt(query.limit, LIMIT, () => invalid(`invalid query: ${LIMIT_ERROR}`)),
          });
          if (fields === "summary")
            return jsonArrayResponse(
              ids.length,
              (i) => hooks.findSummary(ids[i]!),
              (json) => json,
            );
          return jsonArrayResponse(ids.length, (i) => hooks.find(ids[i]!));
        },
        {
          query: listQuery,
          response: { 200: HookListOut, ...listErrors },
        },
      )
      .get("/hooks/:id", ({ params }) => hooks.get(params.id), { params, query: NoQuery, response: { 200: HookOut, ...hookErrors } })
      .delete(
        "/hooks/:id",
        async ({ params }) => {
          await hooks.delete(params.id);
          return {};
        },
        { params, query: NoQuery, body: NoBody, response: { 200: Empty, ...hookErrors } },
      )
      .post("/hooks/:id/discard", ({ params, actor }) => hooks.discard(params.id, actor), {
        params,
        query: NoQuery,
        body: NoBody,
        response: { 200: HookOut, ...errors },
      })
      .post("/hooks/:id/retry", ({ params, actor }) => hooks.retry(params.id, actor), {
        params,
        query: NoQuery,
        body: NoBody,
        response: { 200: HookOut, ...errors },
      })
      // An extension beside RetryHook: delivers again whatever the status (docs/management-api.md).
      .post("/hooks/:id/redeliver", ({ params, actor }) => hooks.redeliver(params.id, actor), {
        params,
        query: NoQuery,
        body: NoBody,
        response: { 200: HookOut, ...errors },
      })
      .post("/hooks/:id/process", ({ params, actor }) => hooks.process(params.id, actor), {
        params,
        query: NoQuery,
        body: NoBody,
        response: { 200: HookOut, ...errors },
      })
      .post("/hooks/:id/fail", ({ params, actor, body }) => hooks.fail(params.id, actor, body.message), {
        params,
        query: NoQuery,
        body: failBody,
        response: { 200: HookOut, ...errors },
      })
  );
}
