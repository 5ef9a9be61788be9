import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";

/**
 * Read-only share links (share/): one hook (`kind` "hook", `target` its id) or a saved view's hooks
 * (`kind` "view", `target` the view's name, `query` its query when shared). Only the SHA-256 of the
 * link's token is kept; `id` names the link in lists and revocation. A revoked link's row is deleted.
 */
export const shareLinks = sqliteTable(
  "share_links",
  {
    id: text("id").primaryKey(),
    tokenSha256: text("token_sha256").notNull().unique(),
    kind: text("kind", { enum: ["hook", "view"] }).notNull(),
    target: text("target").notNull(),
    query: text("query"),
    /** JSON array of the channels its creator was limited to (lib/caller.ts); NULL: none. */
    channels: text("channels"),
    createdBy: text("created_by").notNull(),
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [index("share_links_expires").on(t.expiresAt)],
);
