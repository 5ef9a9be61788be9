import { NAME_RULE } from "../../config/schema";
import { Elysia, t } from "elysia";
import { Channel, ChannelName, Empty, ErrorBody, NoBody, NoQuery } from "../model";
import { toWireChannel } from "../model";
import type { ManagementDeps } from "./deps";

const params = t.Object(
  { name: t.String({ ...ChannelName, error: `name: channel names are ${NAME_RULE}, at most 64 characters` }) },
  { additionalProperties: false },
);
// The list answers no 404 (the OpenAPI documents list what each route answers).
const listErrors = { 400: ErrorBody, 401: ErrorBody };
const errors = { ...listErrors, 404: ErrorBody };

/** ChannelService_*: list, get, delete, pause, resume. Pause and resume are idempotent. */
export function channelRoutes({ auth, channels, keepOpen, onChannelDeleted }: ManagementDeps) {
  return new Elysia()
    .use(auth)
    .get("/channels", async () => (await channels.list()).map(toWireChannel), { query: NoQuery, response: { 200: t.Array(Channel), ...listErrors } })
    .get("/channels/:name", async ({ params }) => toWireChannel(await channels.get(params.name)), {
      params,
      query: NoQuery,
      response: { 200: Channel, ...errors },
    })
    .delete(
      "/channels/:name",
      async ({ params, request }) => {
        // Runs after auth: a large channel takes seconds, which must not close the connection as idle.
        keepOpen(request);
        await channels.delete(params.name);
        // Its custom response and remembered delivery ids go with it (Mailroom's extensions).
        for (const forget of onChannelDeleted) await forget(params.name);
        return {};
      },
      { params, query: NoQuery, body: NoBody, response: { 200: Empty, ...errors } },
    )
    .post("/channels/:name/pause", async ({ params }) => toWireChannel(await channels.pause(params.name)), {
      params,
      query: NoQuery,
      body: NoBody,
      response: { 200: Channel, ...errors },
    })
    .post("/channels/:name/resume", async ({ params }) => toWireChannel(await channels.resume(params.name)), {
      params,
      query: NoQuery,
      body: NoBody,
      response: { 200: Channel, ...errors },
    });
}
