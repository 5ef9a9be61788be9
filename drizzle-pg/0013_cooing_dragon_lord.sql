CREATE TABLE "bulk_jobs" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"action" text NOT NULL,
	"query" text NOT NULL,
	"params" text NOT NULL,
	"actor" text NOT NULL,
	"state" text COLLATE "C" NOT NULL,
	"total" integer NOT NULL,
	"done" integer NOT NULL,
	"skipped" integer NOT NULL,
	"failed" integer NOT NULL,
	"until" text COLLATE "C",
	"created_at" bigint NOT NULL,
	"finished_at" bigint,
	"message" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "saved_views" (
	"owner" text COLLATE "C" NOT NULL,
	"name" text COLLATE "C" NOT NULL,
	"query" text NOT NULL,
	"created_by" text NOT NULL,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE INDEX "bulk_jobs_state" ON "bulk_jobs" USING btree ("state","id");--> statement-breakpoint
CREATE UNIQUE INDEX "saved_views_owner_name" ON "saved_views" USING btree ("owner","name");