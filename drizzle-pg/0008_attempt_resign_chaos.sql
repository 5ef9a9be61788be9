ALTER TABLE "attempts" ADD COLUMN "resigned" text;--> statement-breakpoint
ALTER TABLE "attempts" ADD COLUMN "chaos" text;--> statement-breakpoint
ALTER TABLE "dashboard_handlers" ADD COLUMN "chaos" text;