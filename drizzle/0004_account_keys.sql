CREATE TABLE `translate_account_keys` (
	`key_sha256` text PRIMARY KEY NOT NULL,
	`account_id` integer NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `translate_account_keys_account_id` ON `translate_account_keys` (`account_id`);