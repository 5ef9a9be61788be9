CREATE TABLE `contract_seen` (
	`channel` text NOT NULL,
	`event_type` text NOT NULL,
	`path` text NOT NULL,
	`first_hook` text NOT NULL,
	PRIMARY KEY(`channel`, `event_type`, `path`)
);
--> statement-breakpoint
CREATE TABLE `hook_contracts` (
	`hook_id` text PRIMARY KEY NOT NULL,
	`channel` text NOT NULL,
	`result` text NOT NULL,
	`violations` text DEFAULT '[]' NOT NULL,
	`new_type` integer DEFAULT false NOT NULL,
	`new_field` integer DEFAULT false NOT NULL,
	`checked_at` integer NOT NULL,
	FOREIGN KEY (`hook_id`) REFERENCES `hooks`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `hook_contracts_channel_result` ON `hook_contracts` (`channel`,`result`);