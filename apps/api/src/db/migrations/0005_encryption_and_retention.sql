CREATE TABLE "case_deletions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"case_number" text NOT NULL,
	"report_type" text NOT NULL,
	"final_status" text NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	"closed_at" timestamp with time zone NOT NULL,
	"deleted_at" timestamp with time zone DEFAULT now() NOT NULL,
	"retention_days" integer NOT NULL,
	"retention_set_by" text,
	"retention_set_at" timestamp with time zone,
	"files_deleted" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "data_keys" (
	"id" uuid PRIMARY KEY NOT NULL,
	"company_id" uuid,
	"wrapped_key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"retired_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "retention_days" integer DEFAULT 1095 NOT NULL;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "retention_set_by" text;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "retention_set_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "case_deletions" ADD CONSTRAINT "case_deletions_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_keys" ADD CONSTRAINT "data_keys_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "case_deletions_company_idx" ON "case_deletions" USING btree ("company_id","deleted_at");--> statement-breakpoint
CREATE UNIQUE INDEX "data_keys_active_key" ON "data_keys" USING btree (coalesce("company_id", '00000000-0000-0000-0000-000000000000'::uuid)) WHERE retired_at IS NULL;--> statement-breakpoint
CREATE INDEX "data_keys_company_idx" ON "data_keys" USING btree ("company_id");