ALTER TABLE "channels" ADD COLUMN "deleting_since" bigint;--> statement-breakpoint
ALTER TABLE "deliveries" ADD COLUMN "pending" boolean DEFAULT false NOT NULL;