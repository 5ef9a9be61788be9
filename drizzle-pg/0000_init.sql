CREATE TABLE "api_keys" (
	"label" text COLLATE "C" PRIMARY KEY NOT NULL,
	"token_sha256" text NOT NULL,
	"created_at" bigint DEFAULT 0 NOT NULL,
	"last_used_at" bigint
);
--> statement-breakpoint
CREATE TABLE "channel_counts" (
	"channel" text COLLATE "C" NOT NULL,
	"slot" smallint NOT NULL,
	"pending" bigint DEFAULT 0 NOT NULL,
	"handled" bigint DEFAULT 0 NOT NULL,
	"failed" bigint DEFAULT 0 NOT NULL,
	"discarded" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "channel_counts_channel_slot_pk" PRIMARY KEY("channel","slot")
);
--> statement-breakpoint
CREATE TABLE "channels" (
	"name" text COLLATE "C" PRIMARY KEY NOT NULL,
	"paused" boolean DEFAULT false NOT NULL,
	"guards" text DEFAULT '[]' NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"hook_id" text COLLATE "C" NOT NULL,
	"kind" text NOT NULL,
	"actor" text NOT NULL,
	"message" text DEFAULT '' NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "hooks" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"channel" text COLLATE "C" NOT NULL,
	"status" text COLLATE "C" NOT NULL,
	"method" text NOT NULL,
	"query" text NOT NULL,
	"headers" text NOT NULL,
	"body" "bytea" NOT NULL,
	"ip" text NOT NULL,
	"created_at" bigint NOT NULL,
	"finalized_at" bigint
);
--> statement-breakpoint
CREATE TABLE "refusals" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "refusals_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"channel" text COLLATE "C" NOT NULL,
	"guard" text NOT NULL,
	"status" integer NOT NULL,
	"reason" text NOT NULL,
	"ip" text NOT NULL,
	"method" text NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "attempts" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "attempts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"hook_id" text COLLATE "C" NOT NULL,
	"handler" text COLLATE "C" NOT NULL,
	"attempt" integer NOT NULL,
	"round_start" integer NOT NULL,
	"outcome" text COLLATE "C" NOT NULL,
	"due_at" bigint NOT NULL,
	"started_at" bigint,
	"finished_at" bigint,
	"http_status" integer,
	"exit_code" integer,
	"excerpt" text DEFAULT '' NOT NULL,
	"error" text DEFAULT '' NOT NULL,
	"lease_owner" text,
	"lease_until" bigint
);
--> statement-breakpoint
CREATE TABLE "translate_account_keys" (
	"key_sha256" text COLLATE "C" PRIMARY KEY NOT NULL,
	"account_id" bigint NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "translate_accounts" (
	"id" bigint PRIMARY KEY NOT NULL,
	"balance" bigint NOT NULL,
	"reserved" bigint DEFAULT 0 NOT NULL,
	"overdraft" boolean DEFAULT false NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "translate_attachments" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "translate_attachments_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"type" text NOT NULL,
	"name" text NOT NULL,
	"weight" integer NOT NULL,
	"size" text NOT NULL,
	"data" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "translate_comment_attachments" (
	"comment_id" bigint NOT NULL,
	"attachment_id" bigint NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "translate_comment_attachments_comment_id_attachment_id_pk" PRIMARY KEY("comment_id","attachment_id")
);
--> statement-breakpoint
CREATE TABLE "translate_comments" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "translate_comments_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"order_id" bigint NOT NULL,
	"role" text NOT NULL,
	"author" text NOT NULL,
	"text" text NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "translate_ledger" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "translate_ledger_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"account_id" bigint NOT NULL,
	"order_id" bigint,
	"entry" text NOT NULL,
	"balance_delta" bigint NOT NULL,
	"reserved_delta" bigint NOT NULL,
	"balance_after" bigint NOT NULL,
	"reserved_after" bigint NOT NULL,
	"actor" text NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "translate_orders" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "translate_orders_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"account_id" bigint NOT NULL,
	"status" text COLLATE "C" NOT NULL,
	"source_language" text NOT NULL,
	"target_language" text NOT NULL,
	"resource_type" text NOT NULL,
	"resource_metadata" text,
	"source_text" text NOT NULL,
	"snippet" text NOT NULL,
	"target_text" text,
	"volume" integer NOT NULL,
	"price" bigint NOT NULL,
	"paid" boolean DEFAULT false NOT NULL,
	"tone" text,
	"context_limit" integer,
	"category" text,
	"translator" text,
	"created_at" bigint NOT NULL,
	"accepted_at" bigint,
	"completed_at" bigint,
	"status_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "dashboard_guards" (
	"name" text COLLATE "C" PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"settings" text NOT NULL,
	"secret" text,
	"created_at" bigint NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "dashboard_handlers" (
	"name" text COLLATE "C" PRIMARY KEY NOT NULL,
	"channel" text COLLATE "C" NOT NULL,
	"url" text NOT NULL,
	"headers" text NOT NULL,
	"max_attempts" integer NOT NULL,
	"backoff_initial_ms" bigint NOT NULL,
	"backoff_max_ms" bigint NOT NULL,
	"timeout_ms" bigint NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "dashboard_settings" (
	"key" text COLLATE "C" PRIMARY KEY NOT NULL,
	"value" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"token_sha256" text COLLATE "C" PRIMARY KEY NOT NULL,
	"email" text COLLATE "C" NOT NULL,
	"stamp" text NOT NULL,
	"created_at" bigint NOT NULL,
	"expires_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"email" text COLLATE "C" PRIMARY KEY NOT NULL,
	"role" text NOT NULL,
	"password_hash" text NOT NULL,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "channel_responses" (
	"channel" text COLLATE "C" PRIMARY KEY NOT NULL,
	"setting" text NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "dedup_stats" (
	"channel" text COLLATE "C" PRIMARY KEY NOT NULL,
	"dropped" bigint DEFAULT 0 NOT NULL,
	"last_dropped_at" bigint
);
--> statement-breakpoint
CREATE TABLE "deliveries" (
	"channel" text COLLATE "C" NOT NULL,
	"delivery_id" text COLLATE "C" NOT NULL,
	"hook_id" text NOT NULL,
	"created_at" bigint NOT NULL,
	CONSTRAINT "deliveries_channel_delivery_id_pk" PRIMARY KEY("channel","delivery_id")
);
--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_hook_id_hooks_id_fk" FOREIGN KEY ("hook_id") REFERENCES "public"."hooks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attempts" ADD CONSTRAINT "attempts_hook_id_hooks_id_fk" FOREIGN KEY ("hook_id") REFERENCES "public"."hooks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "translate_comment_attachments" ADD CONSTRAINT "translate_comment_attachments_comment_id_translate_comments_id_fk" FOREIGN KEY ("comment_id") REFERENCES "public"."translate_comments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "translate_comment_attachments" ADD CONSTRAINT "translate_comment_attachments_attachment_id_translate_attachments_id_fk" FOREIGN KEY ("attachment_id") REFERENCES "public"."translate_attachments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "translate_comments" ADD CONSTRAINT "translate_comments_order_id_translate_orders_id_fk" FOREIGN KEY ("order_id") REFERENCES "public"."translate_orders"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "events_hook_id" ON "events" USING btree ("hook_id","id");--> statement-breakpoint
CREATE INDEX "hooks_channel_status_id" ON "hooks" USING btree ("channel","status","id");--> statement-breakpoint
CREATE INDEX "refusals_channel_id" ON "refusals" USING btree ("channel","id");--> statement-breakpoint
CREATE INDEX "attempts_queue" ON "attempts" USING btree ("outcome","handler","due_at");--> statement-breakpoint
CREATE INDEX "attempts_hook" ON "attempts" USING btree ("hook_id","handler","attempt");--> statement-breakpoint
CREATE INDEX "translate_account_keys_account_id" ON "translate_account_keys" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "translate_comment_attachments_attachment" ON "translate_comment_attachments" USING btree ("attachment_id");--> statement-breakpoint
CREATE INDEX "translate_comments_order_id" ON "translate_comments" USING btree ("order_id","id");--> statement-breakpoint
CREATE INDEX "translate_ledger_account_id" ON "translate_ledger" USING btree ("account_id","id");--> statement-breakpoint
CREATE INDEX "translate_orders_account_id" ON "translate_orders" USING btree ("account_id","id");--> statement-breakpoint
CREATE INDEX "translate_orders_status" ON "translate_orders" USING btree ("status","status_at");--> statement-breakpoint
CREATE INDEX "dashboard_handlers_channel" ON "dashboard_handlers" USING btree ("channel");--> statement-breakpoint
CREATE INDEX "sessions_email" ON "sessions" USING btree ("email");--> statement-breakpoint
CREATE INDEX "deliveries_channel_created" ON "deliveries" USING btree ("channel","created_at");