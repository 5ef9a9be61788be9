-- The search index keeps trigrams without positions (detail=none): a fifth of the size and twice
-- the indexing rate; candidates are checked against their hook's document (src/hooks/search).
-- The old index is dropped and every hook is indexed again by the start-up sweep.
DROP TABLE `search_index`;
--> statement-breakpoint
DELETE FROM `search_rows`;
--> statement-breakpoint
CREATE VIRTUAL TABLE `search_index` USING fts5(text, fields, content='', contentless_delete=1, detail=none, tokenize='trigram case_sensitive 1');
