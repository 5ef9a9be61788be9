CREATE TABLE "share_links" (
	"id" text COLLATE "C" PRIMARY KEY NOT NULL,
	"token_sha256" text COLLATE "C" NOT NULL,
	"kind" text NOT NULL,
	"target" text NOT NULL,
	"query" text,
	"channels" text,
	"created_by" text NOT NULL,
	"created_at" bigint NOT NULL,
	"expires_at" bigint NOT NULL,
	CONSTRAINT "share_links_token_sha256_unique" UNIQUE("token_sha256")
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "channels" text;--> statement-breakpoint
CREATE INDEX "share_links_expires" ON "share_links" USING btree ("expires_at");