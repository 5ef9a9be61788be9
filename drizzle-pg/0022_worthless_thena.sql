CREATE TABLE "notices" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"notifier" text COLLATE "C" NOT NULL,
	"notice" text NOT NULL,
	"state" text COLLATE "C" NOT NULL,
	"attempts" integer NOT NULL,
	"next_attempt_at" bigint NOT NULL,
	"last_error" text,
	"created_at" bigint NOT NULL,
	"done_at" bigint
);
--> statement-breakpoint
CREATE TABLE "notifier_stats" (
	"notifier" text COLLATE "C" PRIMARY KEY NOT NULL,
	"sent" bigint NOT NULL,
	"failed" bigint NOT NULL,
	"last_error" text,
	"last_error_at" bigint
);
--> statement-breakpoint
CREATE INDEX "notices_notifier_state" ON "notices" USING btree ("notifier","state","id");--> statement-breakpoint
CREATE INDEX "notices_state_done" ON "notices" USING btree ("state","done_at");