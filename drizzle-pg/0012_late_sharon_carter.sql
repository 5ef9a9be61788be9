CREATE TABLE "contract_seen" (
	"channel" text COLLATE "C" NOT NULL,
	"event_type" text COLLATE "C" NOT NULL,
	"path" text COLLATE "C" NOT NULL,
	"first_hook" text COLLATE "C" NOT NULL,
	CONSTRAINT "contract_seen_channel_event_type_path_pk" PRIMARY KEY("channel","event_type","path")
);
--> statement-breakpoint
CREATE TABLE "hook_contracts" (
	"hook_id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"channel" text COLLATE "C" NOT NULL,
	"result" text COLLATE "C" NOT NULL,
	"violations" text DEFAULT '[]' NOT NULL,
	"new_type" boolean DEFAULT false NOT NULL,
	"new_field" boolean DEFAULT false NOT NULL,
	"checked_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "hook_contracts" ADD CONSTRAINT "hook_contracts_hook_id_hooks_id_fk" FOREIGN KEY ("hook_id") REFERENCES "public"."hooks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "hook_contracts_channel_result" ON "hook_contracts" USING btree ("channel","result");