CREATE TABLE "hook_marks" (
	"hook_id" text COLLATE "C" NOT NULL,
	"kind" text COLLATE "C" NOT NULL,
	"created_at" bigint NOT NULL,
	CONSTRAINT "hook_marks_hook_id_kind_pk" PRIMARY KEY("hook_id","kind")
);
--> statement-breakpoint
ALTER TABLE "refusals" ADD COLUMN "delivery_id" text;--> statement-breakpoint
ALTER TABLE "hook_marks" ADD CONSTRAINT "hook_marks_hook_id_hooks_id_fk" FOREIGN KEY ("hook_id") REFERENCES "public"."hooks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "hook_marks_kind" ON "hook_marks" USING btree ("kind","hook_id");--> statement-breakpoint
CREATE INDEX "refusals_delivery" ON "refusals" USING btree ("channel","delivery_id");