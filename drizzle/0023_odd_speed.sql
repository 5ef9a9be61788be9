CREATE TABLE `alert_rules` (
	`name` text PRIMARY KEY NOT NULL,
	`rule` text NOT NULL,
	`created_by` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_by` text NOT NULL,
	`updated_at` integer NOT NULL
);
