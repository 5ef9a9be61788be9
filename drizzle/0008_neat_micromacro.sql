ALTER TABLE `hooks` ADD `source_id` text;--> statement-breakpoint
ALTER TABLE `refusals` ADD `ref` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `refusals` ADD `query` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `refusals` ADD `headers` text DEFAULT '{}' NOT NULL;