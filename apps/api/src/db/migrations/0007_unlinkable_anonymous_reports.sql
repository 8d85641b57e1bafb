CREATE TABLE "intake_sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"token_hash" text NOT NULL,
	"company_id" uuid NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"submitted_at" timestamp with time zone,
	"submission" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pending_receipts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"payload" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "platform_secrets" (
	"name" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "receipt_sessions" (
	"id_hash" text PRIMARY KEY NOT NULL,
	"report_id" uuid NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "intake_code" text DEFAULT substr(replace(gen_random_uuid()::text, '-', ''), 1, 12) NOT NULL;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "intake_help_text" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "files" ADD COLUMN "owner_intake_id" uuid;--> statement-breakpoint
ALTER TABLE "files" ADD COLUMN "owner_report_id" uuid;--> statement-breakpoint
ALTER TABLE "files" ADD COLUMN "metadata_status" text DEFAULT 'none' NOT NULL;--> statement-breakpoint
ALTER TABLE "report_files" ADD COLUMN "legacy" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "receipt_hash" text;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "contact_email" text;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "accused_name_index" text;--> statement-breakpoint
ALTER TABLE "intake_sessions" ADD CONSTRAINT "intake_sessions_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pending_receipts" ADD CONSTRAINT "pending_receipts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receipt_sessions" ADD CONSTRAINT "receipt_sessions_report_id_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "intake_sessions_token_hash_key" ON "intake_sessions" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "intake_sessions_expires_idx" ON "intake_sessions" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "pending_receipts_user_idx" ON "pending_receipts" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "receipt_sessions_expires_idx" ON "receipt_sessions" USING btree ("expires_at");--> statement-breakpoint
ALTER TABLE "files" ADD CONSTRAINT "files_owner_intake_id_intake_sessions_id_fk" FOREIGN KEY ("owner_intake_id") REFERENCES "public"."intake_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "files" ADD CONSTRAINT "files_owner_report_id_reports_id_fk" FOREIGN KEY ("owner_report_id") REFERENCES "public"."reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "companies_intake_code_key" ON "companies" USING btree ("intake_code");--> statement-breakpoint
CREATE INDEX "files_owner_intake_idx" ON "files" USING btree ("owner_intake_id");--> statement-breakpoint
CREATE INDEX "files_owner_report_idx" ON "files" USING btree ("owner_report_id");--> statement-breakpoint
-- Files already cited by more than one report stay as they are (marked legacy); new citations are one per file.
UPDATE "report_files" SET "legacy" = true WHERE "file_id" IN (SELECT "file_id" FROM "report_files" GROUP BY "file_id" HAVING count(*) > 1);--> statement-breakpoint
CREATE UNIQUE INDEX "report_files_one_report_key" ON "report_files" USING btree ("file_id") WHERE NOT legacy;--> statement-breakpoint
CREATE UNIQUE INDEX "reports_receipt_hash_key" ON "reports" USING btree ("receipt_hash");--> statement-breakpoint
CREATE INDEX "reports_accused_name_index_idx" ON "reports" USING btree ("company_id","accused_name_index");