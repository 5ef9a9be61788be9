CREATE TABLE `bulk_jobs` (
	`id` text PRIMARY KEY NOT NULL,
	`action` text NOT NULL,
	`query` text NOT NULL,
	`params` text NOT NULL,
	`actor` text NOT NULL,
	`state` text NOT NULL,
	`total` integer NOT NULL,
	`done` integer NOT NULL,
	`skipped` integer NOT NULL,
	`failed` integer NOT NULL,
	`until` text,
	`created_at` integer NOT NULL,
	`finished_at` integer,
	`message` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `bulk_jobs_state` ON `bulk_jobs` (`state`,`id`);--> statement-breakpoint
CREATE TABLE `saved_views` (
	`owner` text NOT NULL,
	`name` text NOT NULL,
	`query` text NOT NULL,
	`created_by` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `saved_views_owner_name` ON `saved_views` (`owner`,`name`);