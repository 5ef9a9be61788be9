ALTER TABLE "dashboard_handlers" ADD COLUMN "when" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "dashboard_handlers" ADD COLUMN "rate" text;--> statement-breakpoint
ALTER TABLE "dashboard_handlers" ADD COLUMN "breaker" text;