CREATE TABLE `channel_responses` (
	`channel` text PRIMARY KEY NOT NULL,
	`setting` text NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `dedup_stats` (
	`channel` text PRIMARY KEY NOT NULL,
	`dropped` integer DEFAULT 0 NOT NULL,
	`last_dropped_at` integer
);
--> statement-breakpoint
CREATE TABLE `deliveries` (
	`channel` text NOT NULL,
	`delivery_id` text NOT NULL,
	`hook_id` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`channel`, `delivery_id`)
);
--> statement-breakpoint
CREATE INDEX `deliveries_channel_created` ON `deliveries` (`channel`,`created_at`);