CREATE INDEX "reports_company_updated_idx" ON "reports" USING btree ("company_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "reports_company_feedback_due_idx" ON "reports" USING btree ("company_id","feedback_due_at","id");--> statement-breakpoint
CREATE INDEX "reports_company_case_number_pattern_idx" ON "reports" USING btree ("company_id","case_number" text_pattern_ops);