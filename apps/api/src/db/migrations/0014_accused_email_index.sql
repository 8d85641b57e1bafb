ALTER TABLE "reports" ADD COLUMN "accused_email" text;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "accused_email_index" text;--> statement-breakpoint
CREATE INDEX "reports_accused_email_index_idx" ON "reports" USING btree ("company_id","accused_email_index");--> statement-breakpoint
CREATE INDEX "reports_accused_email_unread_idx" ON "reports" USING btree ("id") WHERE "reports"."accused_email" IS NULL;