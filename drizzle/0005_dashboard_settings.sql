CREATE TABLE `dashboard_guards` (
	`name` text PRIMARY KEY NOT NULL,
	`kind` text NOT NULL,
	`settings` text NOT NULL,
	`secret` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `dashboard_handlers` (
	`name` text PRIMARY KEY NOT NULL,
	`channel` text NOT NULL,
	`url` text NOT NULL,
	`headers` text NOT NULL,
	`max_attempts` integer NOT NULL,
	`backoff_initial_ms` integer NOT NULL,
	`backoff_max_ms` integer NOT NULL,
	`timeout_ms` integer NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `dashboard_handlers_channel` ON `dashboard_handlers` (`channel`);--> statement-breakpoint
CREATE TABLE `dashboard_settings` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL
);
--> statement-breakpoint
ALTER TABLE `api_keys` ADD `last_used_at` integer;