CREATE TABLE "relay_listeners" (
	"handler" text COLLATE "C" PRIMARY KEY NOT NULL,
	"listener" text NOT NULL,
	"host" text NOT NULL,
	"started_at" bigint NOT NULL,
	"connected_at" bigint NOT NULL,
	"seen_at" bigint NOT NULL,
	"instance" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "scopes" text;--> statement-breakpoint
ALTER TABLE "api_keys" ADD COLUMN "channels" text;