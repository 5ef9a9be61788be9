import { callerChannels } from "../lib/caller";
import { Elysia, t } from "elysia";
import { NAME_PATTERN } from "../config/schema";
import type { SignIn } from "../hooks/auth";
import { hookStatusSchema } from "../hooks/model";
import { HOOK_STATUSES } from "../hooks/status";
import { HOOK_ID_PATTERN } from "../lib/ids";
import { acceptsDeflate } from "./deflate";
import type { Live } from "./index";

const strict = { additionalProperties: false } as const;
export const streamQuery = t.Object(
  {
    channel: t.Optional(t.String({ maxLength: 64, pattern: NAME_PATTERN, error: "channel: must be a channel name of at most 64 characters" })),
    status: t.Optional(hookStatusSchema({ error: `status: must be one of ${HOOK_STATUSES.join(", ")}` })),
    hook: t.Optional(
      t.String({
        pattern: HOOK_ID_PATTERN,
        error: "hook: must be a hook id",
        description: "Of the hooks, only this one's events (a screen showing one hook); channel and refusal events as the other filters say",
      }),
    ),
    latest: t.Optional(
      t.String({
        pattern: "^[1-9][0-9]{0,2}$|^1000$",
        error: "latest: must be a whole number from 1 to 1000",
        description:
          'At most this many hook events per write of the stream, the newest; an event `skipped` ({"hooks": N}) before them counts those left out. For screens that show the newest hooks; leave it out to get every change',
      }),
    ),
    fields: t.Optional(
      t.Literal("summary", {
        error: "fields: must be summary",
        description: "`summary`: hook events carry the Hook resource without body, payload, headers and events, plus `size` (bytes of the body)",
      }),
    ),
  },
  strict,
);

/**
 * GET /stream: Server-Sent Events for whoever `auth` admits (an API key under /v1, a session under
 * /ui/api). `stillAdmitted` checks the request's credentials again while the stream is open: a
 * revoked key, a signed-out or removed user loses the stream too. Open streams are counted per
 * credential (`actor`: the key's label, the user's e-mail) and in all; past either limit the
 * answer is 429 (live/limits.ts).
 */
export function streamRoutes(
  auth: SignIn,
  live: Pick<Live, "streams">,
  stillAdmitted?: (request: Request) => boolean,
  /** `keys`: the callers are API keys, and one scoped to channels may read neither issues nor handlers (hooks/auth.ts): its stream sends none of theirs. */
  opts: { keys?: boolean } = {},
) {
  return new Elysia().use(auth).get(
    "/stream",
    (ctx) => {
      const { query, request } = ctx;
      // Compressed once for every client that takes deflate (live/deflate.ts), as browsers do.
      const deflate = acceptsDeflate(request.headers.get("accept-encoding"));
      // A limited caller's stream keeps its channels for its whole life (lib/caller.ts).
      const channels = callerChannels();
      const filter = {
        ...query,
        latest: query.latest === undefined ? undefined : Number(query.latest),
        ...(channels ? { channels, hooksOnly: opts.keys } : {}),
      };
      // A key and a user are told apart by the path they came in by.
      const credential = `${new URL(request.url).pathname} ${ctx.actor}`;
      const body = live.streams.open(filter, request.headers.get("last-event-id"), {
        credential,
        deflate,
        admitted: stillAdmitted && (() => stillAdmitted(request)),
      });
      return new Response(body, {
        headers: {
          "content-type": "text/event-stream; charset=utf-8",
          "cache-control": "no-store",
          "x-accel-buffering": "no",
          vary: "accept-encoding",
          ...(deflate ? { "content-encoding": "deflate" } : {}),
        },
      });
    },
    { query: streamQuery },
  );
}
