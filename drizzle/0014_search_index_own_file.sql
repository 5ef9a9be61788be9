-- The search index moves to a file of its own next to the data file (src/hooks/search/index-file.ts),
-- written by a thread of its own: its transactions no longer take the data file's write lock that
-- catching needs. The index here is dropped; the start-up sweep indexes every hook into the new file.
-- Entries of deleted hooks are removed by the indexer's purge (no trigger reaches another file).
DROP TRIGGER IF EXISTS `hooks_search_delete`;
--> statement-breakpoint
DROP TABLE IF EXISTS `search_index`;
--> statement-breakpoint
DROP TABLE IF EXISTS `search_rows`;
