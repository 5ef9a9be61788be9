CREATE TABLE `api_keys` (
	`label` text PRIMARY KEY NOT NULL,
	`token_sha256` text NOT NULL,
	`created_at` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE `channels` (
	`name` text PRIMARY KEY NOT NULL,
	`paused` integer DEFAULT false NOT NULL,
	`guards` text DEFAULT '[]' NOT NULL,
	`pending` integer DEFAULT 0 NOT NULL,
	`handled` integer DEFAULT 0 NOT NULL,
	`failed` integer DEFAULT 0 NOT NULL,
	`discarded` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`hook_id` text NOT NULL,
	`kind` text NOT NULL,
	`actor` text NOT NULL,
	`message` text DEFAULT '' NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`hook_id`) REFERENCES `hooks`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `events_hook_id` ON `events` (`hook_id`,`id`);--> statement-breakpoint
CREATE TABLE `hooks` (
	`id` text PRIMARY KEY NOT NULL,
	`channel` text NOT NULL,
	`status` text NOT NULL,
	`method` text NOT NULL,
	`query` text NOT NULL,
	`headers` text NOT NULL,
	`body` blob NOT NULL,
	`ip` text NOT NULL,
	`created_at` integer NOT NULL,
	`finalized_at` integer
);
--> statement-breakpoint
CREATE INDEX `hooks_channel_status_id` ON `hooks` (`channel`,`status`,`id`);--> statement-breakpoint
CREATE INDEX `hooks_status_id` ON `hooks` (`status`,`id`);--> statement-breakpoint
CREATE INDEX `hooks_channel_id` ON `hooks` (`channel`,`id`);--> statement-breakpoint
CREATE INDEX `hooks_created_at` ON `hooks` (`created_at`);