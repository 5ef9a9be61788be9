CREATE TABLE `sessions` (
	`token_sha256` text PRIMARY KEY NOT NULL,
	`email` text NOT NULL,
	`stamp` text NOT NULL,
	`created_at` integer NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `sessions_email` ON `sessions` (`email`);--> statement-breakpoint
CREATE TABLE `users` (
	`email` text PRIMARY KEY NOT NULL,
	`role` text NOT NULL,
	`password_hash` text NOT NULL,
	`created_at` integer NOT NULL
);
