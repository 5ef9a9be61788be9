import { Elysia, t } from "elysia";
import { NAME_PATTERN, NAME_RULE } from "../config/values";
import { ErrorBody, NoBody, NoQuery } from "../hooks/model";
import type { ManagementDeps } from "../hooks/routes/deps";
import type { Controls } from "./controls";
import { callerChannels, channelMatches } from "../lib/caller";
import { notFound } from "../lib/errors";

const strict = { additionalProperties: false } as const;
const params = t.Object(
  { name: t.String({ maxLength: 64, pattern: NAME_PATTERN, error: `name: handler names are ${NAME_RULE}, at most 64 characters` }) },
  strict,
);
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };

/** A handler of the config file or the dashboard, with its delivery controls (Mailroom's extension). */
export const HandlerInfo = t.Object(
  {
    name: t.String({ description: "the handler's name" }),
    kind: t.String({ description: "forward, command or module" }),
    channels: t.Array(t.String(), { description: "the channels whose hooks it handles" }),
    state: t.Union([t.Literal("active"), t.Literal("paused"), t.Literal("breaker_open"), t.Literal("breaker_half_open")], {
      description:
        "paused: by a user, until resumed (kept across restarts); breaker_open: its circuit breaker opened after attempts failed in a row, " +
        "attempts wait until `breaker.reopens_at`; breaker_half_open: one attempt goes through; active: attempts run",
    }),
    rate: t.Union([t.String(), t.Null()], { description: 'attempts started per span of time at most ("10/s"); null when not paced' }),
    breaker: t.Union(
      [
        t.Object(
          {
            state: t.Union([t.Literal("closed"), t.Literal("open"), t.Literal("half_open")]),
            failures: t.Integer({ minimum: 0, description: "attempts failed in a row, as this instance counted them" }),
            threshold: t.Integer({ minimum: 1, description: "failures in a row that open it (`breaker.failures`)" }),
            cool_down: t.String({ description: "how long attempts wait once it opened (`breaker.cool_down`), in milliseconds" }),
            reopens_at: t.Union([t.String(), t.Null()], { description: "when an open breaker lets one attempt through" }),
          },
          strict,
        ),
        t.Null(),
      ],
      { description: "its circuit breaker; null when it has none" },
    ),
    waiting: t.Integer({ minimum: 0, description: "its attempts queued or running" }),
  },
  strict,
);

/**
 * A handler as a caller limited to channels sees it (lib/caller.ts): with its channels among theirs
 * only, and not at all when it handles none of them.
 */
function seen<H extends { channels: string[] }>(handler: H): H | undefined {
  const limit = callerChannels();
  if (!limit) return handler;
  const channels = handler.channels.filter((c) => channelMatches(limit, c));
  return channels.length > 0 ? { ...handler, channels } : undefined;
}

/**
 * GET /handlers, GET /handlers/{name}, POST /handlers/{name}/pause and /resume: the handlers and
 * their delivery controls. Pausing and resuming are admin actions (`admin`, else `auth`).
 */
export function handlerControlRoutes({ auth, admin, controls }: Pick<ManagementDeps, "auth" | "admin"> & { controls: Controls }) {
  const reads = new Elysia()
    .use(auth)
    .get("/handlers", async () => (await controls.list()).flatMap((h) => seen(h) ?? []), {
      query: NoQuery,
      response: { 200: t.Array(HandlerInfo), 401: ErrorBody },
    })
    .get(
      "/handlers/:name",
      async ({ params }) => {
        const handler = seen(await controls.get(params.name));
        if (!handler) throw notFound(`handler "${params.name}" not found`);
        return handler;
      },
      { params, query: NoQuery, response: { 200: HandlerInfo, ...errors } },
    );
  const writes = new Elysia()
    .use(admin ?? auth)
    .post("/handlers/:name/pause", ({ params }) => controls.pause(params.name), {
      params,
      query: NoQuery,
      body: NoBody,
      response: { 200: HandlerInfo, ...errors },
    })
    .post("/handlers/:name/resume", ({ params }) => controls.resume(params.name), {
      params,
      query: NoQuery,
      body: NoBody,
      response: { 200: HandlerInfo, ...errors },
    });
  return new Elysia().use(reads).use(writes);
}
