import { Elysia, t } from "elysia";
import { ErrorBody, NoBody, NoQuery } from "../hooks/model";
import type { ManagementDeps } from "../hooks/routes/deps";
import { HOOK_ID_PATTERN } from "../lib/ids";
import { invalid, notFound, precondition } from "../lib/errors";
import { queryInt, queryIntegerSchema } from "../lib/query-int";
import { Issue, toWireIssue } from "./model";
import type { Issues } from "./service";

const strict = { additionalProperties: false } as const;
const LIMIT = { min: 1, max: 100, fallback: 50 };
const LIMIT_ERROR = "limit: must be an integer from 1 to 100";
const params = t.Object({ id: t.String({ pattern: HOOK_ID_PATTERN, error: "id: must be an issue id (a lowercase ULID)" }) }, strict);
const listQuery = t.Object(
  {
    state: t.Optional(
      t.Union([t.Literal("open"), t.Literal("acknowledged"), t.Literal("resolved")], { error: "state: must be open, acknowledged or resolved" }),
    ),
    limit: t.Optional(queryIntegerSchema(LIMIT, LIMIT_ERROR)),
    after: t.Optional(t.String({ pattern: HOOK_ID_PATTERN, error: "after: must be an issue id (a lowercase ULID)" })),
  },
  { ...strict, error: "the query takes state, limit and after" },
);
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody };

/**
 * GET /issues (newest first, `after` paging), GET /issues/{id}, POST /issues/{id}/ack and
 * /resolve: the alert rules' issues. Reading takes `auth`; acknowledging and resolving too (a
 * member on duty acknowledges), as hooks' own actions do.
 */
export function issueRoutes({ auth, issues }: Pick<ManagementDeps, "auth"> & { issues: Issues }) {
  const found = async (id: string) => {
    const issue = await issues.get(id);
    if (!issue) throw notFound(`issue ${id} not found`);
    return issue;
  };
  const moved = (result: Awaited<ReturnType<Issues["ack"]>>, id: string, verb: string) => {
    if (result === undefined) throw notFound(`issue ${id} not found`);
    if (result === "conflict") throw precondition(`issue ${id} cannot be ${verb}: it is not in a state that allows it`);
    return toWireIssue(result);
  };
  return new Elysia()
    .use(auth)
    .get(
      "/issues",
      async ({ query }) => {
        const limit = queryInt(query.limit, LIMIT, () => invalid(`invalid query: ${LIMIT_ERROR}`));
        return (await issues.list({ state: query.state, before: query.after, limit })).map(toWireIssue);
      },
      { query: listQuery, response: { 200: t.Array(Issue), 400: ErrorBody, 401: ErrorBody, 403: ErrorBody } },
    )
    .get("/issues/:id", async ({ params }) => toWireIssue(await found(params.id)), { params, query: NoQuery, response: { 200: Issue, ...errors } })
    .post("/issues/:id/ack", async ({ params, actor }) => moved(await issues.ack(params.id, actor), params.id, "acknowledged"), {
      params,
      query: NoQuery,
      body: NoBody,
      response: { 200: Issue, ...errors },
    })
    .post("/issues/:id/resolve", async ({ params, actor }) => moved(await issues.resolve(params.id, actor), params.id, "resolved"), {
      params,
      query: NoQuery,
      body: NoBody,
      response: { 200: Issue, ...errors },
    });
}
