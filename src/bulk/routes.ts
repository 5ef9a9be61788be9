import { Elysia, t } from "elysia";
import type { SignIn } from "../hooks/auth";
import { MAX_QUERY_LENGTH } from "../hooks/hook-search";
import { ErrorBody, NoQuery } from "../hooks/model";
import { AppError, invalid } from "../lib/errors";
import { HOOK_ID_PATTERN } from "../lib/ids";
import { queryInt, queryIntegerSchema } from "../lib/query-int";
import type { Transfer } from "../transfer";
import { MAX_TAGS, TAG_PATTERN, TAG_RULE } from "../config/tags";
import { BULK_ACTION_NAMES, BULK_ACTIONS, type BulkActionName, TAGGING } from "./actions";
import type { Bulk } from "./service";
import type { BulkJobRow } from "./store";

const strict = { additionalProperties: false } as const;
const Action = t.String({
  enum: BULK_ACTION_NAMES,
  error: `action: must be one of ${BULK_ACTION_NAMES.join(", ")}`,
  description: "What to do with every hook the query matches",
});
const BulkIn = t.Object(
  {
    query: t.String({ maxLength: MAX_QUERY_LENGTH, error: `query: must be a search of at most ${MAX_QUERY_LENGTH} characters (docs/search.md)` }),
    action: Action,
    dry_run: t.Optional(t.Boolean({ error: "dry_run: must be true or false" })),
    url: t.Optional(t.String({ maxLength: 2048, error: "url: must be an http:// or https:// URL of at most 2048 characters" })),
    tags: t.Optional(
      t.Array(t.String({ pattern: TAG_PATTERN, error: `tags: each is ${TAG_RULE}` }), {
        minItems: 1,
        maxItems: MAX_TAGS,
        error: `tags: 1 to ${MAX_TAGS} tags, each ${TAG_RULE}`,
      }),
    ),
  },
  { ...strict, error: "the body takes query, action, dry_run, url (send) and tags (tag, untag)" },
);
export const BulkJob = t.Object(
  {
    id: t.String(),
    action: t.String(),
    query: t.String(),
    url: t.Union([t.String(), t.Null()], { description: "Where `send` sends each hook; null for the other actions" }),
    state: t.Union([t.Literal("running"), t.Literal("done"), t.Literal("cancelled"), t.Literal("failed"), t.Literal("interrupted")], {
      description: "interrupted: the instance running it stopped before it ended (docs/bulk.md)",
    }),
    total: t.Integer({ description: "Hooks in the job: those the query matched, up to `until`, in a status the action applies to" }),
    done: t.Integer(),
    skipped: t.Integer({ description: "Hooks gone, or moved meanwhile to a status the action does not apply to" }),
    failed: t.Integer({ description: "send: hooks the URL answered with 4xx or 5xx, or did not answer" }),
    until: t.Union([t.String(), t.Null()], { description: "The newest hook when the job started: none caught after it is in the job" }),
    actor: t.String(),
    created_at: t.String(),
    finished_at: t.Union([t.String(), t.Null()]),
    message: t.String(),
  },
  strict,
);
const DryRun = t.Object({ action: t.String(), query: t.String(), count: t.Integer(), until: t.Union([t.String(), t.Null()]) }, strict);
const params = t.Object({ id: t.String({ pattern: HOOK_ID_PATTERN, error: "id: must be a bulk job id (a lowercase ULID)" }) }, strict);
const LIMIT = { min: 1, max: 100, fallback: 20 };
const LIMIT_ERROR = "limit: must be an integer from 1 to 100";
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody };

export function toWireJob(j: BulkJobRow): typeof BulkJob.static {
  return {
    id: j.id,
    action: j.action,
    query: j.query,
    url: typeof j.params.url === "string" ? j.params.url : null,
    state: j.state,
    total: j.total,
    done: j.done,
    skipped: j.skipped,
    failed: j.failed,
    until: j.until,
    actor: j.actor,
    created_at: new Date(j.createdAt).toISOString(),
    finished_at: j.finishedAt === null ? null : new Date(j.finishedAt).toISOString(),
    message: j.message,
  };
}

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

/** Streams the hooks of a snapshot as export lines (transfer/wire.ts), newest first; one gone meanwhile is left out. */
function exportStream(ids: string[], transfer: Transfer): Response {
  const encoder = new TextEncoder();
  let i = 0;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      let text = "";
      while (text.length < 256 * 1024 && i < ids.length) {
        const hook = await transfer.read(ids[i++]!);
        if (hook) text += `${await transfer.line(hook)}\n`;
      }
      if (text) controller.enqueue(encoder.encode(text));
      if (i >= ids.length) controller.close();
    },
  });
  return new Response(stream, {
    headers: {
      "content-type": "application/x-ndjson;charset=utf-8",
      "content-disposition": 'attachment; filename="mailroom-hooks.jsonl"',
      "mailroom-bulk-count": String(ids.length),
    },
  });
}

/**
 * POST /hooks/bulk (a dry run answers the count; export answers the hooks as JSON lines; the other
 * actions start a job, answered as it starts), GET /hooks/bulk (jobs, newest first), GET /hooks/bulk/{id} (progress),
 * DELETE /hooks/bulk/{id} (cancel). `isAdmin` says whether the caller may run an admin action
 * (send: the management API's keys with full access, the dashboard's admins).
 */
export function bulkRoutes({ auth, bulk, transfer, isAdmin }: { auth: SignIn; bulk: Bulk; transfer: Transfer; isAdmin: (request: Request) => boolean }) {
  return new Elysia()
    .use(auth)
    .post(
      "/hooks/bulk",
      async ({ body, actor, request }) => {
        if (!BULK_ACTION_NAMES.includes(body.action as BulkActionName)) throw invalid(`action: must be one of ${BULK_ACTION_NAMES.join(", ")}`);
        const action = body.action as BulkActionName;
        const spec = BULK_ACTIONS[action] as { adminOnly?: boolean };
        if (spec.adminOnly && !isAdmin(request)) {
          throw new AppError("permission_denied", `only an admin may ${action} hooks in bulk (sending to a URL answers from wherever Mailroom runs)`);
        }
        if (action !== "send" && body.url !== undefined) throw invalid("url: only send takes a URL");
        const tagging = TAGGING.includes(action);
        if (tagging && body.tags === undefined) throw invalid(`tags: ${action} needs the tags`);
        if (!tagging && body.tags !== undefined) throw invalid("tags: only tag and untag take tags");
        if (body.dry_run) {
          if (action === "send") await bulk.checkUrl(body.url);
          const { ids, until } = await bulk.snapshot(body.query, action, actor);
          return json(200, { action, query: body.query, count: ids.length, until });
        }
        if (action === "export") return exportStream((await bulk.snapshot(body.query, action, actor)).ids, transfer);
        const job = await bulk.start(action, body.query, action === "send" ? { url: body.url } : tagging ? { tags: [...new Set(body.tags)] } : {}, actor);
        return json(200, toWireJob(job));
      },
      {
        query: NoQuery,
        body: BulkIn,
        response: { 200: t.Union([BulkJob, DryRun]), ...errors },
      },
    )
    .get(
      "/hooks/bulk",
      async ({ query }) => {
        const limit = queryInt(query.limit, LIMIT, () => invalid(`invalid query: ${LIMIT_ERROR}`));
        return (await bulk.list(query.after, limit)).map(toWireJob);
      },
      {
        query: t.Object(
          {
            limit: t.Optional(queryIntegerSchema(LIMIT, LIMIT_ERROR)),
            after: t.Optional(t.String({ pattern: HOOK_ID_PATTERN, error: "after: must be a bulk job id" })),
          },
          { ...strict, error: "the query takes limit and after" },
        ),
        response: { 200: t.Array(BulkJob), 400: ErrorBody, 401: ErrorBody, 403: ErrorBody },
      },
    )
    .get("/hooks/bulk/:id", async ({ params }) => toWireJob(await bulk.get(params.id)), { params, query: NoQuery, response: { 200: BulkJob, ...errors } })
    .delete("/hooks/bulk/:id", async ({ params, actor }) => toWireJob(await bulk.cancel(params.id, actor)), {
      params,
      query: NoQuery,
      response: { 200: BulkJob, ...errors },
    });
}
