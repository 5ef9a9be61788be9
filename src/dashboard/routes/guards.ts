import { Elysia, t } from "elysia";
import { NAME_PATTERN } from "../../config/schema";
import { GUARD_KINDS } from "../../hooks/guards/kinds";
import { Channel, ErrorBody, NoBody, NoQuery, toWireChannel } from "../../hooks/model";
import type { ChannelService } from "../../hooks/channels";
import { SECRET_KEY, type GuardRegistry } from "../../hooks/guard-registry";
import { invalid } from "../../lib/errors";
import type { Gate } from "../gate";
import type { SettingStore } from "../store";

const strict = { additionalProperties: false } as const;
const Name = (what: string) =>
  t.String({ maxLength: 64, pattern: NAME_PATTERN, error: `${what}: must be lowercase letters and digits, words joined by - or _, at most 64 characters` });
const Settings = t.Record(t.String(), t.Unknown(), { error: "settings: must be an object of the kind's settings" });
const Secret = t.String({ minLength: 1, maxLength: 4096, error: "secret: must be a string of 1 to 4096 characters" });
const GuardNames = t.Array(Name("guards[]"), { maxItems: 32, uniqueItems: true, error: "guards: must be a list of distinct guard names" });
const Guard = t.Object(
  { name: t.String(), kind: t.String(), settings: t.Record(t.String(), t.Unknown()), has_secret: t.Boolean(), read_only: t.Boolean() },
  strict,
);
const Field = t.Object({ key: t.String(), description: t.String(), required: t.Boolean(), default: t.Optional(t.Unknown()) }, strict);

/** The settings a kind takes besides name, kind and its secret (and the `_env` keys of the config file). */
function fieldsOf(kind: string): { key: string; description: string; required: boolean; default?: unknown }[] {
  const schema = GUARD_KINDS[kind]!;
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties)
    .filter(([key]) => key !== "name" && key !== "kind" && key !== SECRET_KEY[kind] && !key.endsWith("_env"))
    .map(([key, prop]) => {
      const p = prop as { description?: string; default?: unknown };
      return {
        key,
        description: p.description ?? "",
        required: required.has(key) && p.default === undefined,
        ...(p.default !== undefined ? { default: p.default } : {}),
      };
    });
}

const Defaults = t.Object({ guards: t.Array(t.String()), read_only: t.Boolean() }, strict);
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody };

export type GuardRouteDeps = { gate: Gate; guards: GuardRegistry; channels: ChannelService; settings: SettingStore };

/**
 * Guards, for admins: define one of every kind (its secret is write-only: accepted, never sent
 * back), change or remove it, assign guards to channels and set those of new channels. The config
 * file's guards and channels are listed read-only. Every change applies to the next request.
 */
export function guardRoutes({ gate, guards, channels, settings }: GuardRouteDeps) {
  function requireKnown(names: readonly string[]): void {
    const missing = names.filter((n) => !guards.exists(n));
    if (missing.length > 0) throw invalid(`guards: no guard named ${missing.map((n) => `"${n}"`).join(", ")}`);
  }
  async function usedBy(name: string): Promise<string[]> {
    const users = (await channels.list()).filter((c) => c.guards.includes(name)).map((c) => `channel "${c.name}"`);
    if (channels.defaultGuards().guards.includes(name)) users.push("the default guards");
    return users;
  }
  return new Elysia()
    .use(gate.requireSession("admin"))
    .get(
      "/guards",
      async () => ({
        guards: await guards.list(),
        kinds: Object.keys(GUARD_KINDS).map((kind) => ({ kind, secret: SECRET_KEY[kind] ?? null, fields: fieldsOf(kind) })),
        default_guards: channels.defaultGuards(),
      }),
      {
        query: NoQuery,
        response: {
          200: t.Object(
            {
              guards: t.Array(Guard),
              kinds: t.Array(t.Object({ kind: t.String(), secret: t.Union([t.String(), t.Null()]), fields: t.Array(Field) })),
              default_guards: Defaults,
            },
            strict,
          ),
          ...errors,
        },
      },
    )
    .post("/guards", async ({ body }) => await guards.create(body.name, body.kind, body.settings ?? {}, body.secret), {
      query: NoQuery,
      body: t.Object(
        {
          name: Name("name"),
          kind: t.String({ maxLength: 64, error: "kind: must be a guard kind" }),
          settings: t.Optional(Settings),
          secret: t.Optional(Secret),
        },
        strict,
      ),
      response: { 200: Guard, ...errors },
    })
    .put("/guards/:name", async ({ params, body }) => await guards.update(params.name, body.settings ?? {}, body.secret), {
      params: t.Object({ name: Name("name") }, strict),
      query: NoQuery,
      body: t.Object({ settings: t.Optional(Settings), secret: t.Optional(Secret) }, strict),
      response: { 200: Guard, ...errors },
    })
    .delete(
      "/guards/:name",
      async ({ params }) => {
        await guards.remove(params.name, await usedBy(params.name));
        return {};
      },
      { params: t.Object({ name: Name("name") }, strict), query: NoQuery, body: NoBody, response: { 200: t.Object({}, strict), ...errors } },
    )
    .put(
      "/channels/:name/guards",
      async ({ params, body }) => {
        requireKnown(body.guards);
        return toWireChannel(await channels.setGuards(params.name, body.guards));
      },
      {
        params: t.Object({ name: Name("name") }, strict),
        query: NoQuery,
        body: t.Object({ guards: GuardNames }, strict),
        response: { 200: Channel, ...errors },
      },
    )
    .put(
      "/default-guards",
      async ({ body }) => {
        requireKnown(body.guards);
        await channels.setDefaultGuards(body.guards);
        await settings.writeSetting("default_guards", body.guards);
        return channels.defaultGuards();
      },
      { query: NoQuery, body: t.Object({ guards: GuardNames }, strict), response: { 200: Defaults, ...errors } },
    );
}
