import { Elysia, t } from "elysia";
import { CHANNEL_GLOB_PATTERN, NAME_PATTERN } from "../../config/schema";
import { ErrorBody, NoBody, NoQuery } from "../../hooks/model";
import { invalid } from "../../lib/errors";
import type { DashboardDeps } from "../deps";

const strict = { additionalProperties: false } as const;
const Label = t.String({
  maxLength: 64,
  pattern: NAME_PATTERN,
  error: "label: must be lowercase letters and digits, words joined by - or _, at most 64 characters",
});
const Time = t.Union([t.String(), t.Null()]);
const ChannelName = t.String({
  maxLength: 64,
  pattern: CHANNEL_GLOB_PATTERN,
  error:
    'channels: each must be a channel name (lowercase letters and digits, words joined by - or _, at most 64 characters), * standing for any characters ("stripe-*")',
});
export const ApiKeyInfo = t.Object(
  {
    label: t.String(),
    source: t.Union([t.Literal("config"), t.Literal("local"), t.Literal("dashboard")]),
    created_at: Time,
    last_used_at: Time,
    scopes: t.Optional(t.Array(t.String(), { description: 'present for a scoped key: ["relay"], ["read"] or ["read", "act"]' })),
    channels: t.Optional(t.Array(t.String(), { description: "the channels a scoped key may relay, or see (glob patterns)" })),
  },
  strict,
);
const NewKey = t.Object(
  {
    label: Label,
    scopes: t.Optional(
      t.Array(t.Union([t.Literal("relay"), t.Literal("read"), t.Literal("act")]), {
        minItems: 1,
        uniqueItems: true,
        error: 'scopes: must be ["relay"], ["read"] or ["read", "act"] (leave it out for full access)',
      }),
    ),
    channels: t.Optional(
      t.Array(ChannelName, { minItems: 1, maxItems: 100, uniqueItems: true, error: "channels: a list of distinct channel names or patterns" }),
    ),
  },
  strict,
);
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody };

/**
 * API keys, for admins only: list (with last use), create (the token is in this one answer and
 * never again: only its hash is stored; `scopes: ["relay"]` with `channels` makes a relay key), revoke. Keys of the config file and the local CLI key
 * are listed but cannot be revoked here.
 */
export function apiKeyRoutes({ gate, apiKeys }: DashboardDeps) {
  return new Elysia()
    .use(gate.requireSession("admin"))
    .get("/api-keys", () => apiKeys.list(), { query: NoQuery, response: { 200: t.Array(ApiKeyInfo), ...errors } })
    .post(
      "/api-keys",
      async ({ body }) => {
        if (body.scopes && !body.channels) throw invalid("channels: a scoped key names its channels");
        if (body.channels && !body.scopes) throw invalid('channels: only a key with scopes ("relay", "read") has channels');
        if (body.scopes?.includes("relay") && body.scopes.length > 1) throw invalid('scopes: a relay key has ["relay"] alone');
        if (body.scopes?.includes("relay") && body.channels?.some((c) => c.includes("*"))) throw invalid("channels: a relay key names its channels, without *");
        if (body.scopes?.includes("act") && !body.scopes.includes("read")) throw invalid('scopes: a key that acts also reads: ["read", "act"]');
        const grant = body.scopes && body.channels ? { scopes: [...body.scopes], channels: [...body.channels] } : undefined;
        const { info, token } = await apiKeys.create(body.label, grant);
        return { ...info, token };
      },
      {
        query: NoQuery,
        body: NewKey,
        response: { 200: t.Composite([ApiKeyInfo, t.Object({ token: t.String() })], strict), ...errors },
      },
    )
    .delete(
      "/api-keys/:label",
      async ({ params }) => {
        await apiKeys.revoke(params.label);
        return {};
      },
      { params: t.Object({ label: Label }, strict), query: NoQuery, body: NoBody, response: { 200: t.Object({}, strict), ...errors } },
    );
}
