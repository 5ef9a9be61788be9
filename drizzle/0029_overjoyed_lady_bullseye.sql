CREATE TABLE `notices` (
	`id` text PRIMARY KEY NOT NULL,
	`notifier` text NOT NULL,
	`notice` text NOT NULL,
	`state` text NOT NULL,
	`attempts` integer NOT NULL,
	`next_attempt_at` integer NOT NULL,
	`last_error` text,
	`created_at` integer NOT NULL,
	`done_at` integer
);
--> statement-breakpoint
CREATE INDEX `notices_notifier_state` ON `notices` (`notifier`,`state`,`id`);--> statement-breakpoint
CREATE INDEX `notices_state_done` ON `notices` (`state`,`done_at`);--> statement-breakpoint
CREATE TABLE `notifier_stats` (
	`notifier` text PRIMARY KEY NOT NULL,
	`sent` integer NOT NULL,
	`failed` integer NOT NULL,
	`last_error` text,
	`last_error_at` integer
);
