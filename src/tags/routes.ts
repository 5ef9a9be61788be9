import { Elysia, t } from "elysia";
import { HOOK_ID_PATTERN } from "../lib/ids";
import { ErrorBody, NoBody, NoQuery } from "../hooks/model";
import type { ManagementDeps } from "../hooks/routes/deps";
import { MAX_TAGS, TAG_PATTERN, TAG_RULE, type Tags } from "./index";

const strict = { additionalProperties: false } as const;
const params = t.Object({ id: t.String({ pattern: HOOK_ID_PATTERN, error: "id: must be a lowercase ULID (26 characters)" }) }, strict);
const Tag = t.String({ pattern: TAG_PATTERN, description: `A tag: ${TAG_RULE}` });
const TagsBody = t.Object(
  { tags: t.Array(Tag, { minItems: 1, maxItems: MAX_TAGS, error: `tags: must list 1 to ${MAX_TAGS} tags, each ${TAG_RULE}` }) },
  { ...strict, error: `body: must be {"tags": [...]} with 1 to ${MAX_TAGS} tags, each ${TAG_RULE}` },
);
const TagsOut = t.Object({ tags: t.Array(Tag, { description: "The hook's tags after the change, sorted" }) }, strict);
const ReadOut = t.Object({ read: t.Boolean() }, strict);
const UnreadOut = t.Object({ total: t.Integer({ minimum: 0 }), channels: t.Record(t.String(), t.Integer({ minimum: 0 })) }, strict);
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };

/**
 * Tags of a hook (POST adds, DELETE removes, each with `{"tags": [...]}`) and read marks (Mailroom's
 * extensions, docs/tags.md), under /v1 behind an API key and under the dashboard's API behind a
 * session. The reader of a read mark is `actor`: a dashboard user's e-mail, or `api:<label>` for a key.
 */
export function tagRoutes({ auth, tags }: Pick<ManagementDeps, "auth"> & { tags: Tags }) {
  return new Elysia()
    .use(auth)
    .post("/hooks/:id/tags", ({ params, body }) => tags.add(params.id, body.tags), {
      params,
      query: NoQuery,
      body: TagsBody,
      response: { 200: TagsOut, ...errors },
    })
    .delete("/hooks/:id/tags", ({ params, body }) => tags.remove(params.id, body.tags), {
      params,
      query: NoQuery,
      body: TagsBody,
      response: { 200: TagsOut, ...errors },
    })
    .post("/hooks/:id/read", ({ params, actor }) => tags.markRead(actor, params.id, true), {
      params,
      query: NoQuery,
      body: NoBody,
      response: { 200: ReadOut, ...errors },
    })
    .delete("/hooks/:id/read", ({ params, actor }) => tags.markRead(actor, params.id, false), {
      params,
      query: NoQuery,
      body: NoBody,
      response: { 200: ReadOut, ...errors },
    })
    .get("/unread", ({ actor }) => tags.unread(actor), { query: NoQuery, response: { 200: UnreadOut, 401: ErrorBody, 403: ErrorBody } });
}
