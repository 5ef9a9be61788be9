CREATE TABLE `alert_issues` (
	`id` text PRIMARY KEY NOT NULL,
	`rule` text NOT NULL,
	`kind` text NOT NULL,
	`scope` text NOT NULL,
	`summary` text NOT NULL,
	`state` text NOT NULL,
	`opened_at` integer NOT NULL,
	`last_seen_at` integer NOT NULL,
	`resolved_at` integer,
	`count` integer NOT NULL,
	`hooks_query` text,
	`notified_at` integer NOT NULL,
	`history` text NOT NULL
);
--> statement-breakpoint
CREATE INDEX `alert_issues_rule_scope` ON `alert_issues` (`rule`,`scope`);--> statement-breakpoint
CREATE INDEX `alert_issues_state` ON `alert_issues` (`state`,`id`);