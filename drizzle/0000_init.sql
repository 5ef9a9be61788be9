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
CREATE TABLE `refusals` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`channel` text NOT NULL,
	`guard` text NOT NULL,
	`status` integer NOT NULL,
	`reason` text NOT NULL,
	`ip` text NOT NULL,
	`method` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `refusals_channel_id` ON `refusals` (`channel`,`id`);--> statement-breakpoint
CREATE TABLE `attempts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`hook_id` text NOT NULL,
	`handler` text NOT NULL,
	`attempt` integer NOT NULL,
	`round_start` integer NOT NULL,
	`outcome` text NOT NULL,
	`due_at` integer NOT NULL,
	`started_at` integer,
	`finished_at` integer,
	`http_status` integer,
	`exit_code` integer,
	`excerpt` text DEFAULT '' NOT NULL,
	`error` text DEFAULT '' NOT NULL,
	FOREIGN KEY (`hook_id`) REFERENCES `hooks`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `attempts_queue` ON `attempts` (`outcome`,`handler`,`due_at`);--> statement-breakpoint
CREATE INDEX `attempts_hook` ON `attempts` (`hook_id`,`handler`,`attempt`);--> statement-breakpoint
CREATE TABLE `translate_accounts` (
	`id` integer PRIMARY KEY NOT NULL,
	`balance` integer NOT NULL,
	`reserved` integer DEFAULT 0 NOT NULL,
	`overdraft` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `translate_attachments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`type` text NOT NULL,
	`name` text NOT NULL,
	`weight` integer NOT NULL,
	`size` text NOT NULL,
	`data` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `translate_comment_attachments` (
	`comment_id` integer NOT NULL,
	`attachment_id` integer NOT NULL,
	`position` integer NOT NULL,
	PRIMARY KEY(`comment_id`, `attachment_id`),
	FOREIGN KEY (`comment_id`) REFERENCES `translate_comments`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`attachment_id`) REFERENCES `translate_attachments`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `translate_comment_attachments_attachment` ON `translate_comment_attachments` (`attachment_id`);--> statement-breakpoint
CREATE TABLE `translate_comments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`order_id` integer NOT NULL,
	`role` text NOT NULL,
	`author` text NOT NULL,
	`text` text NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`order_id`) REFERENCES `translate_orders`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `translate_comments_order_id` ON `translate_comments` (`order_id`,`id`);--> statement-breakpoint
CREATE TABLE `translate_ledger` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`order_id` integer,
	`entry` text NOT NULL,
	`balance_delta` integer NOT NULL,
	`reserved_delta` integer NOT NULL,
	`balance_after` integer NOT NULL,
	`reserved_after` integer NOT NULL,
	`actor` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `translate_ledger_account_id` ON `translate_ledger` (`account_id`,`id`);--> statement-breakpoint
CREATE TABLE `translate_orders` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`status` text NOT NULL,
	`source_language` text NOT NULL,
	`target_language` text NOT NULL,
	`resource_type` text NOT NULL,
	`resource_metadata` text,
	`source_text` text NOT NULL,
	`snippet` text NOT NULL,
	`target_text` text,
	`volume` integer NOT NULL,
	`price` integer NOT NULL,
	`paid` integer DEFAULT false NOT NULL,
	`tone` text,
	`context_limit` integer,
	`category` text,
	`translator` text,
	`created_at` integer NOT NULL,
	`accepted_at` integer,
	`completed_at` integer,
	`status_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `translate_orders_account_id` ON `translate_orders` (`account_id`,`id`);--> statement-breakpoint
CREATE INDEX `translate_orders_status` ON `translate_orders` (`status`,`status_at`);