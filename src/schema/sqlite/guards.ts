import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * Requests refused by a guard, newest kept (see REFUSALS_KEPT): the only trace of a hook that was
 * not caught. `id` orders them; `created_at` is in ms since the epoch.
 */
export const refusals = sqliteTable(
  "refusals",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    channel: text("channel").notNull(),
    guard: text("guard").notNull(),
    status: integer("status").notNull(),
    reason: text("reason").notNull(),
    ip: text("ip").notNull(),
    method: text("method").notNull(),
    createdAt: integer("created_at").notNull(),
    /** The refusal's public id (a lowercase ULID made when it happened); "" for rows older than it. */
    ref: text("ref").notNull().default(""),
    /** The request's query string and headers (JSON), secrets redacted. */
    query: text("query").notNull().default(""),
    headers: text("headers").notNull().default("{}"),
    /** "refused", or "handshake": a provider's challenge answered (hooks/guards/types.ts). */
    kind: text("kind").notNull().default("refused"),
    /** Why a signature guard refused it (JSON of hooks/guards/diagnosis.ts), else null. */
    diagnosis: text("diagnosis"),
    /**
     * A signature guard's 401: the refused request as the guard saw it (JSON: method, query, url,
     * ip, headers without cookies, body in base64, within the channel's max body), so its diagnosis can be run
     * again after a restart (POST /v1/refusals/{id}/diagnose). Never shown; deleted with its row.
     */
    request: text("request"),
    /** The saved request's bytes, while it is kept (REQUESTS_KEPT_BYTES bounds their sum). */
    requestBytes: integer("request_bytes"),
    /**
     * The provider's delivery id of the refused request, namespaced as dedup/ makes it
     * (`github:<X-GitHub-Delivery>`, `svix:<webhook-id>`, `stripe:<event id>` ...), or null: what
     * `has:refusal` looks for when the same delivery is caught later (marks/).
     */
    deliveryId: text("delivery_id"),
  },
  (t) => [index("refusals_channel_id").on(t.channel, t.id), index("refusals_delivery").on(t.channel, t.deliveryId)],
);
