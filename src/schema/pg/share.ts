import { index, pgTable, text } from "drizzle-orm/pg-core";
import { key, ms } from "./columns";

/** Read-only share links (see ../sqlite/share.ts). */
export const shareLinks = pgTable(
  "share_links",
  {
    id: key("id").primaryKey(),
    tokenSha256: key("token_sha256").notNull().unique(),
    kind: text("kind", { enum: ["hook", "view"] }).notNull(),
    target: text("target").notNull(),
    query: text("query"),
    channels: text("channels"),
    createdBy: text("created_by").notNull(),
    createdAt: ms("created_at").notNull(),
    expiresAt: ms("expires_at").notNull(),
  },
  (t) => [index("share_links_expires").on(t.expiresAt)],
);
