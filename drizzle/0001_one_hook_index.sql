DROP INDEX `hooks_status_id`;--> statement-breakpoint
DROP INDEX `hooks_channel_id`;