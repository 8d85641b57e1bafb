DROP INDEX "reports_company_created_idx";--> statement-breakpoint
CREATE INDEX "reports_company_created_id_idx" ON "reports" USING btree ("company_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "reports_company_stats_idx" ON "reports" USING btree ("company_id") INCLUDE ("status", "report_type", "created_at", "closed_at", "acknowledged_at", "ack_due_at", "feedback_at", "feedback_due_at");
