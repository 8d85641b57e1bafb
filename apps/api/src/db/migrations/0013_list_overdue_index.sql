-- Hand-written (drizzle cannot declare INCLUDE): the manager list's "overdue" filter (R-PERF-4). Only cases that
-- can be overdue (not acknowledged, or neither answered nor closed) are in it, newest first with the list's
-- tie-breaker, and the deadline columns ride along, so the overdue page walks a short index and its count is an
-- index-only scan instead of a walk of every case of the company.
CREATE INDEX IF NOT EXISTS "reports_company_open_created_idx" ON "reports" USING btree ("company_id", "created_at", "id") INCLUDE ("ack_due_at", "feedback_due_at", "acknowledged_at", "feedback_at", "closed_at") WHERE "acknowledged_at" IS NULL OR ("feedback_at" IS NULL AND "closed_at" IS NULL);
