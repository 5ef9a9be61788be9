import { Elysia, t } from "elysia";
import type { SignIn } from "../hooks/auth";
import { ErrorBody, NoBody, NoQuery } from "../hooks/model";
import { AppError } from "../lib/errors";
import { SHARE_MAX_DAYS, type ShareLinks } from "./service";

const strict = { additionalProperties: false } as const;
export const ShareLink = t.Object(
  {
    id: t.String(),
    kind: t.Union([t.Literal("hook"), t.Literal("view")]),
    hook: t.Optional(t.String({ description: 'kind "hook": the hook shared' })),
    view: t.Optional(t.String({ description: 'kind "view": the saved view shared' })),
    created_by: t.String(),
    created_at: t.String(),
    expires_at: t.String(),
  },
  strict,
);
const NewLink = t.Object(
  {
    hook: t.Optional(t.String({ maxLength: 64, error: "hook: a hook id" })),
    view: t.Optional(t.String({ maxLength: 64, error: "view: a saved view's name" })),
    days: t.Optional(t.Integer({ minimum: 1, maximum: SHARE_MAX_DAYS, error: `days: a whole number of days from 1 to ${SHARE_MAX_DAYS}` })),
  },
  strict,
);
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };

/**
 * POST /share-links (a link to a hook or a saved view the caller sees; its token and URL are in
 * this answer only), GET /share-links (the links not expired, for admins), DELETE
 * /share-links/{id} (revokes one, for admins). `isAdmin`: whether the caller lists and revokes.
 */
export function shareLinkRoutes({ auth, links, isAdmin }: { auth: SignIn; links: ShareLinks; isAdmin: (request: Request) => boolean }) {
  const adminOnly = (request: Request) => {
    if (!isAdmin(request)) throw new AppError("permission_denied", "only an admin may list or revoke share links");
  };
  return new Elysia()
    .use(auth)
    .post("/share-links", ({ body, actor }) => links.create(actor, body), {
      query: NoQuery,
      body: NewLink,
      response: { 200: t.Composite([ShareLink, t.Object({ token: t.String(), url: t.String() })], strict), ...errors },
    })
    .get(
      "/share-links",
      ({ request }) => {
        adminOnly(request);
        return links.list();
      },
      { query: NoQuery, response: { 200: t.Array(ShareLink), ...errors } },
    )
    .delete(
      "/share-links/:id",
      async ({ params, request, set }) => {
        adminOnly(request);
        await links.revoke(params.id);
        set.status = 204;
      },
      { params: t.Object({ id: t.String({ maxLength: 64 }) }, strict), query: NoQuery, body: NoBody, response: { 204: t.Void(), ...errors } },
    );
}

/**
 * GET /shared/{token}: what a share link shows, without signing in: {"kind": "hook", "hook"} or
 * {"kind": "view", "view": {"name", "query", "hooks"}}, and `expires_at`. The only route that
 * takes a link's token; an unknown, expired or revoked one is a 404 with no detail.
 */
export function sharedRoutes(links: ShareLinks) {
  return new Elysia().get(
    "/shared/:token",
    async ({ params, set }) => {
      set.headers["cache-control"] = "no-store";
      set.headers["referrer-policy"] = "no-referrer";
      return links.open(params.token);
    },
    { params: t.Object({ token: t.String({ maxLength: 100 }) }, strict), query: NoQuery },
  );
}
