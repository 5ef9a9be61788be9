import { Elysia, t } from "elysia";
import { CHANNEL_GLOB_PATTERN } from "../../config/schema";
import { precondition } from "../../lib/errors";
import { ErrorBody, NoBody, NoQuery } from "../../hooks/model";
import { EMAIL_PATTERN, toWireUser } from "../users";
import type { DashboardDeps } from "../deps";

const strict = { additionalProperties: false } as const;
const Email = t.String({ maxLength: 254, pattern: EMAIL_PATTERN, error: "email: must be an e-mail address" });
const Password = t.String({ maxLength: 1024, error: "password: must be a string of at most 1024 characters" });
const Role = t.Union([t.Literal("admin"), t.Literal("member")], { error: "role: must be admin or member" });
const Channels = t.Array(
  t.String({
    maxLength: 64,
    pattern: CHANNEL_GLOB_PATTERN,
    error: 'channels: each must be a channel name, * standing for any characters ("stripe-*")',
  }),
  { minItems: 1, maxItems: 100, uniqueItems: true, error: "channels: a list of distinct channel names or patterns" },
);
const User = t.Object(
  {
    email: t.String(),
    role: Role,
    read_only: t.Boolean(),
    created_at: t.Union([t.String(), t.Null()]),
    channels: t.Optional(t.Array(t.String(), { description: "a member limited to these channels (glob patterns); absent: every channel" })),
  },
  strict,
);
const params = t.Object({ email: Email }, strict);
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody };

/** Users, for admins only: list, add, change a password (ends that user's sessions), limit a member to channels, remove. */
export function userRoutes({ gate, users }: DashboardDeps) {
  return new Elysia()
    .use(gate.requireSession("admin"))
    .get("/users", async () => (await users.list()).map(toWireUser), { query: NoQuery, response: { 200: t.Array(User), ...errors } })
    .post("/users", async ({ body }) => toWireUser(await users.add(body.email, body.role, body.password, undefined, body.channels)), {
      query: NoQuery,
      body: t.Object({ email: Email, role: Role, password: Password, channels: t.Optional(Channels) }, strict),
      response: { 200: User, ...errors },
    })
    .put("/users/:email/channels", async ({ params, body }) => toWireUser(await users.setChannels(params.email, body.channels)), {
      params,
      query: NoQuery,
      body: t.Object({ channels: t.Union([Channels, t.Null()]) }, strict),
      response: { 200: User, ...errors },
    })
    .put(
      "/users/:email/password",
      async ({ params, body }) => {
        await users.setPassword(params.email, body.password);
        return {};
      },
      { params, query: NoQuery, body: t.Object({ password: Password }, strict), response: { 200: t.Object({}, strict), ...errors } },
    )
    .delete(
      "/users/:email",
      async ({ params, actor }) => {
        if (params.email.toLowerCase() === actor) throw precondition("you cannot remove yourself: another admin can");
        await users.remove(params.email);
        return {};
      },
      { params, query: NoQuery, body: NoBody, response: { 200: t.Object({}, strict), ...errors } },
    );
}
