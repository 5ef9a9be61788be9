import { Elysia, t } from "elysia";
import { NAME_PATTERN } from "../../config/schema";
import { ErrorBody, NoBody, NoQuery } from "../../hooks/model";
import type { ChannelService } from "../../hooks/channels";
import type { Forwards } from "../../forwards/index";
import type { Gate } from "../gate";

const strict = { additionalProperties: false } as const;
const Name = (what: string) =>
  t.String({ maxLength: 64, pattern: NAME_PATTERN, error: `${what}: must be lowercase letters and digits, words joined by - or _, at most 64 characters` });
const params = t.Object({ name: Name("channel") }, strict);
const Forward = t.Object(
  {
    name: t.String(),
    channel: t.String(),
    url: t.String(),
    headers: t.Record(t.String(), t.String()),
    max_attempts: t.Integer(),
    backoff: t.Object({ initial: t.String(), max: t.String() }),
    timeout: t.String(),
    chaos: t.Union([t.Record(t.String(), t.Unknown()), t.Null()], { description: "delivery chaos towards the app, as written; null when off" }),
    when: t.Union([t.String(), t.Null()], { description: "the hooks the handler runs on, a search query as written; null for every hook" }),
    rate: t.Union([t.String(), t.Null()], { description: 'attempts started per span of time ("10/s"), as written; null when not paced' }),
    breaker: t.Union([t.Object({ failures: t.Integer(), cool_down: t.String() }, strict), t.Null()], {
      description: "the circuit breaker, as written (defaults filled in); null when off",
    }),
  },
  strict,
);
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody };

/**
 * Forward handlers of a channel, added in the dashboard (admins). The body is checked against the
 * forward kind's schema of the config file; any other kind (command, module) is refused, so
 * nobody can make the host run a program from a browser.
 */
/** A forward as answered: header values are write-only (one may be a token), so only names show. */
const answered = <F extends { headers: Record<string, string> }>(f: F): F => ({
  ...f,
  headers: Object.fromEntries(Object.keys(f.headers).map((k) => [k, REDACTED])),
});
const REDACTED = "[write-only]";

export function handlerRoutes({ gate, forwards, channels }: { gate: Gate; forwards: Forwards; channels: ChannelService }) {
  return new Elysia()
    .use(gate.requireSession("admin"))
    .get("/channels/:name/handlers", async ({ params }) => (await channels.get(params.name), (await forwards.list(params.name)).map(answered)), {
      params,
      query: NoQuery,
      response: { 200: t.Array(Forward), ...errors },
    })
    .post(
      "/channels/:name/handlers",
      async ({ params, body }) => {
        await channels.get(params.name);
        return answered(await forwards.add(params.name, body));
      },
      { params, query: NoQuery, body: t.Record(t.String(), t.Unknown(), { error: "the body must be a JSON object" }), response: { 200: Forward, ...errors } },
    )
    .delete(
      "/channels/:name/handlers/:handler",
      async ({ params }) => {
        await forwards.remove(params.name, params.handler);
        return {};
      },
      {
        params: t.Object({ name: Name("channel"), handler: Name("handler") }, strict),
        query: NoQuery,
        body: NoBody,
        response: { 200: t.Object({}, strict), ...errors },
      },
    );
}
