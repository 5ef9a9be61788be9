import { Elysia, t } from "elysia";
import { NAME_RULE } from "../config/schema";
import { ChannelName, ErrorBody, NoQuery } from "../hooks/model";
import type { ManagementDeps } from "../hooks/routes/deps";
import type { Dedup } from "./index";

const params = t.Object(
  { name: t.String({ ...ChannelName, error: `name: channel names are ${NAME_RULE}, at most 64 characters` }) },
  { additionalProperties: false },
);
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 409: ErrorBody };

/** A channel's deduplication setting and how many repeats it dropped. */
export const ChannelDedup = t.Object(
  {
    channel: ChannelName,
    enabled: t.Boolean(),
    window: t.Optional(t.String()),
    header: t.Optional(t.String()),
    dropped: t.String({ pattern: "^[0-9]+$" }),
    last_dropped_at: t.Union([t.String(), t.Null()]),
  },
  { additionalProperties: false },
);

/**
 * A channel's deduplication counter (GET), Mailroom's extension to the channel (the Channel resource
 * keeps the spec's properties). Any valid channel name is accepted, before its first hook too.
 */
export function dedupRoutes({ auth, dedup }: Pick<ManagementDeps, "auth"> & { dedup: Pick<Dedup, "view"> }) {
  return new Elysia()
    .use(auth)
    .get("/channels/:name/dedup", ({ params }) => dedup.view(params.name), { params, query: NoQuery, response: { 200: ChannelDedup, ...errors } });
}
