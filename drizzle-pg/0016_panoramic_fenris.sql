CREATE TABLE "alert_rules" (
	"name" text COLLATE "C" PRIMARY KEY NOT NULL,
	"rule" text NOT NULL,
	"created_by" text NOT NULL,
	"created_at" bigint NOT NULL,
	"updated_by" text NOT NULL,
	"updated_at" bigint NOT NULL
);
