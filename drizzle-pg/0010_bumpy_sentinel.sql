CREATE TABLE "alert_issues" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"rule" text COLLATE "C" NOT NULL,
	"kind" text NOT NULL,
	"scope" text COLLATE "C" NOT NULL,
	"summary" text NOT NULL,
	"state" text COLLATE "C" NOT NULL,
	"opened_at" bigint NOT NULL,
	"last_seen_at" bigint NOT NULL,
	"resolved_at" bigint,
	"count" integer NOT NULL,
	"hooks_query" text,
	"notified_at" bigint NOT NULL,
	"history" text NOT NULL
);
--> statement-breakpoint
CREATE INDEX "alert_issues_rule_scope" ON "alert_issues" USING btree ("rule","scope");--> statement-breakpoint
CREATE INDEX "alert_issues_state" ON "alert_issues" USING btree ("state","id");