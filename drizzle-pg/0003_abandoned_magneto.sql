ALTER TABLE "hooks" ADD COLUMN "source_id" text COLLATE "C";--> statement-breakpoint
ALTER TABLE "refusals" ADD COLUMN "ref" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "refusals" ADD COLUMN "query" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "refusals" ADD COLUMN "headers" text DEFAULT '{}' NOT NULL;