import { NAME_RULE } from "../config/schema";
import { Elysia, t } from "elysia";
import { ResponseSetting } from "../config/misbehave";
import { ChannelName, ErrorBody, NoBody, NoQuery } from "../hooks/model";
import type { ManagementDeps } from "../hooks/routes/deps";
import type { Responses } from "./index";

const params = t.Object(
  { name: t.String({ ...ChannelName, error: `name: channel names are ${NAME_RULE}, at most 64 characters` }) },
  { additionalProperties: false },
);
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 409: ErrorBody };

/** The effective custom response of a channel, where it comes from, and how many requests it answered. */
export const ChannelResponse = t.Object(
  {
    channel: ChannelName,
    source: t.Union([t.Literal("default"), t.Literal("config"), t.Literal("api")]),
    response: ResponseSetting,
    answered: t.Integer({
      minimum: 0,
      description: "requests answered since the setting was put or Mailroom started; the next one takes step `answered` of the sequence",
    }),
  },
  { additionalProperties: false },
);

/**
 * A channel's custom response (GET, PUT, DELETE), Mailroom's extension to the channel (the Channel
 * resource keeps the spec's properties). Any valid channel name is accepted, before its first hook
 * too, so a test can set the answer before sending. Changing the response is an admin action
 * (`admin`): it answers senders on the dashboard's origin.
 */
export function responseRoutes({ auth, admin, responses }: Pick<ManagementDeps, "auth" | "admin"> & { responses: Responses }) {
  const reads = new Elysia()
    .use(auth)
    .get("/channels/:name/response", ({ params }) => responses.get(params.name), { params, query: NoQuery, response: { 200: ChannelResponse, ...errors } });
  const writes = new Elysia()
    .use(admin ?? auth)
    .put("/channels/:name/response", ({ params, body }) => responses.put(params.name, body), {
      params,
      query: NoQuery,
      body: ResponseSetting,
      response: { 200: ChannelResponse, ...errors },
    })
    .delete("/channels/:name/response", ({ params }) => responses.delete(params.name), {
      params,
      query: NoQuery,
      body: NoBody,
      response: { 200: ChannelResponse, ...errors },
    });
  return new Elysia().use(reads).use(writes);
}
