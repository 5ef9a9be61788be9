ALTER TABLE `dashboard_handlers` ADD `when` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `dashboard_handlers` ADD `rate` text;--> statement-breakpoint
ALTER TABLE `dashboard_handlers` ADD `breaker` text;