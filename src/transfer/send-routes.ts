import { Elysia, t } from "elysia";
import { NAME_PATTERN, NAME_RULE } from "../config/schema";
import { invalid, notFound } from "../lib/errors";
import { HOOK_ID_PATTERN } from "../lib/ids";
import { ErrorBody, HookExtendedOut, NoQuery } from "../hooks/model";
import { replay } from "./replay";
import type { ManagementDeps } from "../hooks/routes/deps";
import type { Transfer } from "./index";

const strict = { additionalProperties: false } as const;
const params = t.Object({ id: t.String({ pattern: HOOK_ID_PATTERN, error: "id: must be a lowercase ULID (26 characters)" }) }, strict);
const METHOD = "^[A-Z]{1,16}$";
const edits = {
  method: t.Optional(t.String({ pattern: METHOD, error: "method: must be an HTTP method in capitals (POST, PUT...)" })),
  headers: t.Optional(t.Record(t.String({ maxLength: 256 }), t.String({ maxLength: 8192 }), { error: "headers: must be an object of strings" })),
  body: t.Optional(t.String({ maxLength: 48 * 1024, error: "body: must be base64 (the body's bytes), at most 36 KiB decoded" })),
};
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Sign what is sent as a provider does, with the user's key (never stored, never echoed). */
const ResignIn = t.Object(
  {
    kind: t.String({ maxLength: 64, description: "the provider whose signature is made (mailroom providers lists them)" }),
    secret: t.Optional(t.String({ maxLength: 4096, description: "the shared secret (HMAC and token schemes)" })),
    private_key: t.Optional(t.String({ maxLength: 16384, description: "the private key, PEM (Ed25519, ECDSA and RSA schemes)" })),
  },
  { ...strict, error: "resign: must be an object with kind and secret or private_key" },
);

/** A body given as base64; throws invalid_argument when it is not. */
function bytes(body: string | undefined): Uint8Array | undefined {
  if (body === undefined) return undefined;
  if (!BASE64.test(body) || body.length % 4 !== 0) throw invalid("body: must be base64 (the body's bytes)");
  return new Uint8Array(Buffer.from(body, "base64"));
}

export const ReplayAnswer = t.Union([
  t.Object(
    {
      status: t.Integer(),
      headers: t.Record(t.String(), t.String()),
      body: t.String({ description: "Base64 of the answer's body (at most 1 MiB)" }),
      truncated: t.Boolean(),
      duration_ms: t.Number(),
    },
    strict,
  ),
  t.Object({ error: t.String({ description: "Why there was no answer (refused connection, timeout...)" }), duration_ms: t.Number() }, strict),
]);

/**
 * Edit and send: POST /hooks/{id}/send makes a new hook in a channel from this one (method, headers
 * and body as given, else the source's), linked to it by `source_id`; POST /hooks/{id}/replay sends
 * it to a URL and answers what came back. Both bodies are small JSON (the management API's 64 KiB).
 * Sending to a URL is what adding a forward handler is: `sendsTo` decides who may (the dashboard's
 * admins; members only to `[dashboard] member_send_to`), and no one reaches a link-local address
 * unless `[server] allow_link_local` (transfer/replay.ts).
 */
export function sendRoutes({
  auth,
  hooks,
  transfer,
  clock,
  sendsTo,
  allowLinkLocal,
}: Pick<ManagementDeps, "auth" | "hooks" | "clock" | "sendsTo" | "allowLinkLocal"> & { transfer: Transfer }) {
  return new Elysia()
    .use(auth)
    .post(
      "/hooks/:id/send",
      async ({ params, body, request, server }) => {
        const id = await transfer.send(
          params.id,
          { channel: body.channel, method: body.method, headers: body.headers, body: bytes(body.body) },
          server?.requestIP(request)?.address ?? "",
        );
        return hooks.get(id);
      },
      {
        params,
        query: NoQuery,
        body: t.Object(
          { channel: t.String({ maxLength: 64, pattern: NAME_PATTERN, error: `channel: channel names are ${NAME_RULE}, at most 64 characters` }), ...edits },
          strict,
        ),
        response: { 200: HookExtendedOut, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody },
      },
    )
    .post(
      "/hooks/:id/replay",
      async ({ params, body, request }) => {
        sendsTo?.(request, body.url);
        const hook = await hooks.raw(params.id);
        if (!hook) throw notFound(`hook "${params.id}" not found`);
        const input = { url: body.url, method: body.method, headers: body.headers, body: bytes(body.body), resign: body.resign };
        return replay(hook, input, { allowLinkLocal, now: () => clock.now() });
      },
      {
        params,
        query: NoQuery,
        body: t.Object(
          {
            url: t.String({ maxLength: 2048, error: "url: must be an http:// or https:// URL of at most 2048 characters" }),
            ...edits,
            resign: t.Optional(ResignIn),
          },
          strict,
        ),
        response: { 200: ReplayAnswer, 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody },
      },
    );
}
