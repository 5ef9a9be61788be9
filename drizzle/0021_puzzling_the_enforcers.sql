CREATE TABLE `hook_reads` (
	`user_id` text NOT NULL,
	`hook_id` text NOT NULL,
	`read_at` integer NOT NULL,
	PRIMARY KEY(`user_id`, `hook_id`),
	FOREIGN KEY (`hook_id`) REFERENCES `hooks`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `hook_reads_hook` ON `hook_reads` (`hook_id`);--> statement-breakpoint
CREATE TABLE `hook_tags` (
	`hook_id` text NOT NULL,
	`tag` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`hook_id`, `tag`),
	FOREIGN KEY (`hook_id`) REFERENCES `hooks`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `hook_tags_tag` ON `hook_tags` (`tag`,`hook_id`);