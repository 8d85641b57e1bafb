CREATE TABLE "case_exclusions" (
	"report_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"reason" text NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "case_exclusions_report_id_user_id_pk" PRIMARY KEY("report_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "company_domain_claims" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"domain" text NOT NULL,
	"email" text NOT NULL,
	"token_hash" text NOT NULL,
	"requested_by" uuid,
	"expires_at" timestamp with time zone NOT NULL,
	"verified_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "company_invitations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"email" text NOT NULL,
	"role" text NOT NULL,
	"token_hash" text NOT NULL,
	"invited_by" uuid,
	"expires_at" timestamp with time zone NOT NULL,
	"accepted_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_assignees" (
	"report_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"assigned_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "report_assignees_report_id_user_id_pk" PRIMARY KEY("report_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "detail" jsonb;--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "last_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "repeat_count" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "notice_contact" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "share_outcome_summary" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "suspended_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "protective_measures" ADD COLUMN "reporter_opinion" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "protective_measures" ADD COLUMN "reporter_opinion_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "report_files" ADD COLUMN "message_id" uuid;--> statement-breakpoint
ALTER TABLE "report_messages" ADD COLUMN "is_feedback" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "report_status_history" ADD COLUMN "is_feedback" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "outcome_finding" text;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "outcome_actions" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "outcome_summary" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "outcome_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "outcome_by" uuid;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "digest_sent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "case_exclusions" ADD CONSTRAINT "case_exclusions_report_id_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "case_exclusions" ADD CONSTRAINT "case_exclusions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "case_exclusions" ADD CONSTRAINT "case_exclusions_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "company_domain_claims" ADD CONSTRAINT "company_domain_claims_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "company_domain_claims" ADD CONSTRAINT "company_domain_claims_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "company_invitations" ADD CONSTRAINT "company_invitations_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "company_invitations" ADD CONSTRAINT "company_invitations_invited_by_users_id_fk" FOREIGN KEY ("invited_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_assignees" ADD CONSTRAINT "report_assignees_report_id_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_assignees" ADD CONSTRAINT "report_assignees_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_assignees" ADD CONSTRAINT "report_assignees_assigned_by_users_id_fk" FOREIGN KEY ("assigned_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "case_exclusions_user_idx" ON "case_exclusions" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "company_domain_claims_token_hash_key" ON "company_domain_claims" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "company_domain_claims_company_idx" ON "company_domain_claims" USING btree ("company_id");--> statement-breakpoint
CREATE UNIQUE INDEX "company_invitations_token_hash_key" ON "company_invitations" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "company_invitations_company_idx" ON "company_invitations" USING btree ("company_id","created_at");--> statement-breakpoint
CREATE INDEX "report_assignees_user_idx" ON "report_assignees" USING btree ("user_id");--> statement-breakpoint
ALTER TABLE "report_files" ADD CONSTRAINT "report_files_message_id_report_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."report_messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_outcome_by_users_id_fk" FOREIGN KEY ("outcome_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;