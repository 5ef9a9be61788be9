import { Elysia, t } from "elysia";
import { NAME_PATTERN } from "../../config/schema";
import { callerChannels } from "../../lib/caller";
import { AppError, invalid, notFound } from "../../lib/errors";
import { HOOK_ID_PATTERN } from "../../lib/ids";
import { queryInt, queryIntegerSchema } from "../../lib/query-int";
import { DIAGNOSIS_CAUSES, REFUSALS_KEPT } from "../guards";
import { ErrorBody, NoQuery, toWireRefusal } from "../model";
import type { ManagementDeps } from "./deps";

const strict = { additionalProperties: false } as const;
const name = (what: string) =>
  t.Optional(t.String({ maxLength: 64, pattern: NAME_PATTERN, error: `${what}: must be a ${what} name of at most 64 characters` }));
const LIMIT_ERROR = `limit: must be an integer from 1 to ${REFUSALS_KEPT}`;
const LIMIT = { min: 1, max: REFUSALS_KEPT, fallback: 50 };
const STATUS = { min: 100, max: 599, fallback: 0 };
const STATUS_ERROR = "status: must be an HTTP status from 100 to 599";
const listQuery = t.Object(
  {
    channel: name("channel"),
    guard: name("guard"),
    status: t.Optional(queryIntegerSchema(STATUS, STATUS_ERROR)),
    kind: t.Optional(t.Union([t.Literal("refused"), t.Literal("handshake")], { error: 'kind: must be "refused" or "handshake"' })),
    limit: t.Optional(queryIntegerSchema(LIMIT, LIMIT_ERROR)),
  },
  strict,
);

/** Why a signature failed (hooks/guards/diagnosis.ts, docs/diagnoses.md). */
export const DiagnosisModel = t.Object(
  {
    cause: t.Union(
      [
        t.Literal(DIAGNOSIS_CAUSES[0]),
        t.Literal(DIAGNOSIS_CAUSES[1]),
        t.Literal(DIAGNOSIS_CAUSES[2]),
        t.Literal(DIAGNOSIS_CAUSES[3]),
        t.Literal(DIAGNOSIS_CAUSES[4]),
        t.Literal(DIAGNOSIS_CAUSES[5]),
        t.Literal(DIAGNOSIS_CAUSES[6]),
      ],
      { description: "wrong_secret, body_changed, clock_skew, wrong_url, encoding, unknown or skipped (docs/diagnoses.md)" },
    ),
    message: t.String({ description: "One sentence for a person" }),
    guard: t.Optional(t.String({ description: "wrong_secret: the guard whose secret made the signature" })),
    skew_seconds: t.Optional(t.Integer({ description: "clock_skew: how far the signed timestamp is from now, in seconds" })),
    direction: t.Optional(t.Union([t.Literal("past"), t.Literal("future")], { description: "clock_skew: which way" })),
    url: t.Optional(t.String({ description: "wrong_url: the URL the sender signed" })),
    change: t.Optional(t.String({ description: "body_changed: what the body went through; encoding: what the signature was written in" })),
    tried: t.Array(t.String(), { description: "The causes tested, in order" }),
  },
  strict,
);

/** A refused request: not a hook, since it was never caught. */
export const Refusal = t.Object(
  {
    id: t.String({ description: 'A lowercase ULID; "" for refusals stored before refusals had ids' }),
    kind: t.Union([t.Literal("refused"), t.Literal("handshake")], {
      description:
        '"refused": the request was refused; "handshake": a provider\'s challenge (Slack url_verification, Discord PING, Meta hub.challenge...) answered with a 2xx, kept here since it is not a hook either',
    }),
    channel: t.String(),
    guard: t.String(),
    status: t.Integer(),
    reason: t.String(),
    created_at: t.String(),
    ip: t.String(),
    method: t.String(),
    query: t.String({ description: "The query string, credentials redacted" }),
    headers: t.Record(t.String(), t.String(), { description: "The request's headers, credentials redacted, cookies left out" }),
    diagnosis: t.Union([DiagnosisModel, t.Null()], {
      description:
        "Why a signature guard refused it (docs/diagnoses.md); null for every other refusal. Worked out after the answer, before the refusal is stored, so a listed refusal never waits for one.",
    }),
  },
  strict,
);

const params = t.Object({ id: t.String({ pattern: HOOK_ID_PATTERN, error: "id: must be a refusal id (a lowercase ULID)" }) }, strict);

/**
 * GET /v1/refusals: the most recent refused requests (by a guard, or by the catching endpoint: 400,
 * 413, 503) and handshakes answered, newest first, so that a user can see why a provider's
 * delivery was not caught. `channel`, `guard`, `status` and `kind` filter; `limit` defaults to 50.
 * GET /v1/refusals/{id}: one. POST /v1/refusals/{id}/diagnose (admin, or a key without scopes):
 * works out its diagnosis again from the request saved with it (docs/diagnoses.md).
 */
export function refusalRoutes({ auth, admin, refusals }: ManagementDeps) {
  const again = new Elysia().use(admin ?? auth).post(
    "/refusals/:id/diagnose",
    async ({ params }) => {
      // A key limited to channels is a member here, as a signed-in member is.
      if (callerChannels()) throw new AppError("permission_denied", "only an admin or a key without a channel limit may diagnose a refusal again");
      const r = await refusals.rediagnose(params.id);
      if (!r) throw notFound(`refusal "${params.id}" not found (only the newest ${REFUSALS_KEPT} are kept)`);
      return toWireRefusal(r);
    },
    { params, query: NoQuery, response: { 200: Refusal, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody } },
  );
  const reads = new Elysia()
    .use(auth)
    .get(
      "/refusals",
      async ({ query }) =>
        (
          await refusals.list({
            channel: query.channel,
            guard: query.guard,
            status: query.status === undefined ? undefined : queryInt(query.status, STATUS, () => invalid(`invalid query: ${STATUS_ERROR}`)),
            kind: query.kind,
            limit: queryInt(query.limit, LIMIT, () => invalid(`invalid query: ${LIMIT_ERROR}`)),
          })
        ).map(toWireRefusal),
      { query: listQuery, response: { 200: t.Array(Refusal), 400: ErrorBody, 401: ErrorBody } },
    )
    .get(
      "/refusals/:id",
      async ({ params }) => {
        const r = await refusals.get(params.id);
        if (!r) throw notFound(`refusal "${params.id}" not found (only the newest ${REFUSALS_KEPT} are kept)`);
        return toWireRefusal(r);
      },
      { params, query: NoQuery, response: { 200: Refusal, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody } },
    );
  return new Elysia().use(reads).use(again);
}
