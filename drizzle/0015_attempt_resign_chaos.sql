ALTER TABLE `attempts` ADD `resigned` text;--> statement-breakpoint
ALTER TABLE `attempts` ADD `chaos` text;--> statement-breakpoint
ALTER TABLE `dashboard_handlers` ADD `chaos` text;