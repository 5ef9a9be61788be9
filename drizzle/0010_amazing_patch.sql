CREATE TABLE `relay_listeners` (
	`handler` text PRIMARY KEY NOT NULL,
	`listener` text NOT NULL,
	`host` text NOT NULL,
	`started_at` integer NOT NULL,
	`connected_at` integer NOT NULL,
	`seen_at` integer NOT NULL,
	`instance` text NOT NULL
);
--> statement-breakpoint
ALTER TABLE `api_keys` ADD `scopes` text;--> statement-breakpoint
ALTER TABLE `api_keys` ADD `channels` text;