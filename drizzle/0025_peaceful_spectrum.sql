CREATE TABLE `share_links` (
	`id` text PRIMARY KEY NOT NULL,
	`token_sha256` text NOT NULL,
	`kind` text NOT NULL,
	`target` text NOT NULL,
	`query` text,
	`channels` text,
	`created_by` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `share_links_token_sha256_unique` ON `share_links` (`token_sha256`);--> statement-breakpoint
CREATE INDEX `share_links_expires` ON `share_links` (`expires_at`);--> statement-breakpoint
ALTER TABLE `users` ADD `channels` text;