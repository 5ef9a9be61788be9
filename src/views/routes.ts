import { Elysia, t } from "elysia";
import { NAME_PATTERN, NAME_RULE } from "../config/schema";
import type { SignIn } from "../hooks/auth";
import { MAX_QUERY_LENGTH } from "../hooks/hook-search";
import { ErrorBody, NoQuery } from "../hooks/model";
import type { Views } from "./service";
import type { ViewRow } from "./store";

const strict = { additionalProperties: false } as const;
const Name = t.String({ maxLength: 64, pattern: NAME_PATTERN, error: `name: view names are ${NAME_RULE}, at most 64 characters` });
export const View = t.Object(
  {
    name: t.String(),
    query: t.String(),
    shared: t.Boolean({ description: "Saved by an admin for everyone; else the caller's own" }),
    created_by: t.String(),
    updated_at: t.String(),
    count: t.Optional(t.Integer({ description: "include=count: hooks the query matches now (at most 10,000 counted)" })),
    count_exact: t.Optional(t.Boolean({ description: "include=count: false when there are more than `count`" })),
  },
  strict,
);
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };

const toWire = (v: ViewRow) => ({
  name: v.name,
  query: v.query,
  shared: v.owner === "",
  created_by: v.createdBy,
  updated_at: new Date(v.updatedAt).toISOString(),
});

/**
 * GET /views (the shared ones and the caller's; `include=count` counts each), POST /views (saves,
 * or replaces the query of a view of that name), DELETE /views/{name} (`shared=true` for a shared
 * one). `isAdmin`: whether the caller may save and remove shared views.
 */
export function viewRoutes({ auth, views, isAdmin }: { auth: SignIn; views: Views; isAdmin: (request: Request) => boolean }) {
  return new Elysia()
    .use(auth)
    .get(
      "/views",
      async ({ query, actor }) => {
        const rows = (await views.list(actor)).map(toWire);
        if (query.include !== "count") return rows;
        return Promise.all(rows.map(async (v) => ({ ...v, ...(({ count, exact }) => ({ count, count_exact: exact }))(await views.count(v.query, actor)) })));
      },
      {
        query: t.Object({ include: t.Optional(t.Literal("count", { error: "include: must be count" })) }, { ...strict, error: "the query takes include" }),
        response: { 200: t.Array(View), ...errors },
      },
    )
    .post(
      "/views",
      async ({ body, actor, request }) =>
        toWire(await views.save(actor, isAdmin(request), { name: body.name, query: body.query, shared: body.shared ?? false })),
      {
        query: NoQuery,
        body: t.Object(
          {
            name: Name,
            query: t.String({ maxLength: MAX_QUERY_LENGTH, error: `query: must be a search of at most ${MAX_QUERY_LENGTH} characters` }),
            shared: t.Optional(t.Boolean({ error: "shared: must be true or false" })),
          },
          { ...strict, error: "the body takes name, query and shared" },
        ),
        response: { 200: View, ...errors },
      },
    )
    .delete(
      "/views/:name",
      async ({ params, query, actor, request, set }) => {
        await views.remove(actor, isAdmin(request), params.name, query.shared === "true");
        set.status = 204;
      },
      {
        params: t.Object({ name: Name }, strict),
        query: t.Object({ shared: t.Optional(t.Union([t.Literal("true"), t.Literal("false")], { error: "shared: must be true or false" })) }, strict),
        response: { 204: t.Void(), ...errors },
      },
    );
}
