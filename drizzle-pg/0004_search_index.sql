-- The search index (src/hooks/search): kept after each caught batch commits, never inside it.
-- pg_trgm's GIN indexes answer LIKE '%needle%' on lower-case text (docs/search.md says why).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE TABLE "hook_search" (
  "id" text COLLATE "C" PRIMARY KEY NOT NULL REFERENCES "hooks"("id") ON DELETE CASCADE,
  "text" text NOT NULL,
  "fields" text NOT NULL
);
--> statement-breakpoint
CREATE INDEX "hook_search_text" ON "hook_search" USING gin ("text" gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX "hook_search_fields" ON "hook_search" USING gin ("fields" gin_trgm_ops);
