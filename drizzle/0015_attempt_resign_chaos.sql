ALTER TABLE `attempts` ADD `resigned` text;--> statement-breakpoint
ALTER TABLE `attempts` ADD `chaos` text;