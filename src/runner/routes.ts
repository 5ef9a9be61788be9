import { Elysia, t, type Static } from "elysia";
import { HOOK_ID_PATTERN } from "../lib/ids";
import { toRfc3339 } from "../lib/clock";
import { notFound } from "../lib/errors";
import type { AttemptRow, Runner } from "./index";
import { ErrorBody, NoQuery } from "../hooks/model";
import type { ManagementDeps } from "../hooks/routes/deps";

const strict = { additionalProperties: false } as const;
const params = t.Object({ id: t.String({ pattern: HOOK_ID_PATTERN, error: "id: must be a lowercase ULID (26 characters)" }) }, strict);
const Timestamp = t.Union([t.String(), t.Null()]);

/** One handler attempt. Not a resource of the spec: the Hook resource keeps exactly its properties. */
export const Attempt = t.Object(
  {
    handler: t.String({ description: "name of the handler" }),
    attempt: t.Integer({ minimum: 1, description: "1, 2, ... per handler, counted across RetryHook rounds" }),
    outcome: t.Union(
      [
        t.Literal("queued"),
        t.Literal("running"),
        t.Literal("succeeded"),
        t.Literal("failed"),
        t.Literal("gave_up"),
        t.Literal("cancelled"),
        t.Literal("skipped"),
      ],
      {
        description:
          "failed: another attempt follows; gave_up: the handler stopped and the hook failed; skipped: the handler's when does not want the hook, nothing was sent",
      },
    ),
    due_at: t.String({ description: "when the attempt was or is due to run" }),
    started_at: Timestamp,
    finished_at: Timestamp,
    http_status: t.Union([t.Integer(), t.Null()], { description: "forward: the target's answer" }),
    exit_code: t.Union([t.Integer(), t.Null()], { description: "command: the program's exit code" }),
    excerpt: t.String({ description: "the start of the answer, program output or returned value" }),
    error: t.String({ description: "why the attempt failed; empty otherwise" }),
    resigned: t.Union([t.String(), t.Null()], {
      description: "forward: the provider kind the request was re-signed as (never the secret); null when sent as caught",
    }),
    chaos: t.Union([t.String(), t.Null()], {
      description: "forward: what delivery chaos did (duplicate, reorder, delay, drop_first, burst; several joined by commas); null when nothing",
    }),
  },
  strict,
);
export type AttemptWire = Static<typeof Attempt>;

export function toWireAttempt(a: AttemptRow): AttemptWire {
  return {
    handler: a.handler,
    attempt: a.attempt,
    outcome: a.outcome,
    due_at: toRfc3339(a.dueAt),
    started_at: a.startedAt === null ? null : toRfc3339(a.startedAt),
    finished_at: a.finishedAt === null ? null : toRfc3339(a.finishedAt),
    http_status: a.httpStatus,
    exit_code: a.exitCode,
    excerpt: a.excerpt,
    error: a.error,
    resigned: a.resigned ?? null,
    chaos: a.chaos ?? null,
  };
}

/** GET /v1/hooks/{id}/attempts: every handler attempt of a hook, oldest first; 404 for an unknown hook. */
export function attemptRoutes({ auth, hooks, runner }: Pick<ManagementDeps, "auth" | "hooks"> & { runner: Pick<Runner, "attempts"> }) {
  return new Elysia().use(auth).get(
    "/hooks/:id/attempts",
    async ({ params }) => {
      if (!(await hooks.raw(params.id))) throw notFound(`hook "${params.id}" not found`);
      return (await runner.attempts(params.id)).map(toWireAttempt);
    },
    { params, query: NoQuery, response: { 200: t.Array(Attempt), 400: ErrorBody, 401: ErrorBody, 404: ErrorBody } },
  );
}
