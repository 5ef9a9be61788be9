CREATE TABLE "hook_reads" (
	"user_id" text COLLATE "C" NOT NULL,
	"hook_id" text COLLATE "C" NOT NULL,
	"read_at" bigint NOT NULL,
	CONSTRAINT "hook_reads_user_id_hook_id_pk" PRIMARY KEY("user_id","hook_id")
);
--> statement-breakpoint
CREATE TABLE "hook_tags" (
	"hook_id" text COLLATE "C" NOT NULL,
	"tag" text COLLATE "C" NOT NULL,
	"created_at" bigint NOT NULL,
	CONSTRAINT "hook_tags_hook_id_tag_pk" PRIMARY KEY("hook_id","tag")
);
--> statement-breakpoint
ALTER TABLE "hook_reads" ADD CONSTRAINT "hook_reads_hook_id_hooks_id_fk" FOREIGN KEY ("hook_id") REFERENCES "public"."hooks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hook_tags" ADD CONSTRAINT "hook_tags_hook_id_hooks_id_fk" FOREIGN KEY ("hook_id") REFERENCES "public"."hooks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "hook_reads_hook" ON "hook_reads" USING btree ("hook_id");--> statement-breakpoint
CREATE INDEX "hook_tags_tag" ON "hook_tags" USING btree ("tag","hook_id");