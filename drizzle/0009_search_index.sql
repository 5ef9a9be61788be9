-- The search index (src/hooks/search): kept after each caught batch commits, never inside it.
-- search_rows maps FTS5 rowids (the id's millisecond * 2^15 + a counter) to hook ids.
CREATE TABLE `search_rows` (`n` integer PRIMARY KEY NOT NULL, `hook_id` text NOT NULL UNIQUE);
--> statement-breakpoint
CREATE VIRTUAL TABLE `search_index` USING fts5(text, fields, content='', contentless_delete=1, tokenize='trigram case_sensitive 1');
--> statement-breakpoint
CREATE TRIGGER `hooks_search_delete` AFTER DELETE ON `hooks` BEGIN
  DELETE FROM `search_index` WHERE rowid = (SELECT n FROM `search_rows` WHERE hook_id = old.id);
  DELETE FROM `search_rows` WHERE hook_id = old.id;
END;
