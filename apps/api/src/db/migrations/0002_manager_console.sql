CREATE TABLE "audit_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"company_id" uuid NOT NULL,
	"actor_id" uuid,
	"action" text NOT NULL,
	"target_type" text NOT NULL,
	"target_id" text,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "protective_measures" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"report_id" uuid NOT NULL,
	"measure" text NOT NULL,
	"detail" text DEFAULT '' NOT NULL,
	"requested_by_reporter" boolean DEFAULT false NOT NULL,
	"reporter_consent" boolean,
	"decision" text DEFAULT 'pending' NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"decided_at" timestamp with time zone,
	"decided_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"report_id" uuid NOT NULL,
	"author_kind" text NOT NULL,
	"author_id" uuid,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "ack_deadline_days" integer DEFAULT 7 NOT NULL;--> statement-breakpoint
ALTER TABLE "companies" ADD COLUMN "feedback_deadline_days" integer DEFAULT 90 NOT NULL;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "accused_name" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "ack_due_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "feedback_due_at" timestamp with time zone;--> statement-breakpoint
UPDATE "reports" SET "ack_due_at" = "created_at" + interval '7 days', "feedback_due_at" = "created_at" + interval '90 days', "accused_name" = coalesce("form"->>'perpetrator_name', '');--> statement-breakpoint
ALTER TABLE "reports" ALTER COLUMN "ack_due_at" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "reports" ALTER COLUMN "feedback_due_at" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "acknowledged_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "feedback_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "closed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "audit_events" ADD CONSTRAINT "audit_events_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit_events" ADD CONSTRAINT "audit_events_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "protective_measures" ADD CONSTRAINT "protective_measures_report_id_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "protective_measures" ADD CONSTRAINT "protective_measures_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_messages" ADD CONSTRAINT "report_messages_report_id_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_messages" ADD CONSTRAINT "report_messages_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_events_target_idx" ON "audit_events" USING btree ("target_id","at");--> statement-breakpoint
CREATE INDEX "audit_events_company_idx" ON "audit_events" USING btree ("company_id","at");--> statement-breakpoint
CREATE INDEX "protective_measures_report_idx" ON "protective_measures" USING btree ("report_id");--> statement-breakpoint
CREATE INDEX "report_messages_report_idx" ON "report_messages" USING btree ("report_id","created_at");--> statement-breakpoint
CREATE INDEX "reports_company_status_idx" ON "reports" USING btree ("company_id","status","created_at");--> statement-breakpoint
CREATE INDEX "reports_company_type_idx" ON "reports" USING btree ("company_id","report_type","created_at");