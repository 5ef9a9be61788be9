CREATE TABLE `hook_marks` (
	`hook_id` text NOT NULL,
	`kind` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`hook_id`, `kind`),
	FOREIGN KEY (`hook_id`) REFERENCES `hooks`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `hook_marks_kind` ON `hook_marks` (`kind`,`hook_id`);--> statement-breakpoint
ALTER TABLE `refusals` ADD `delivery_id` text;--> statement-breakpoint
CREATE INDEX `refusals_delivery` ON `refusals` (`channel`,`delivery_id`);