CREATE TABLE "report_stat_counts" (
	"company_id" uuid NOT NULL,
	"month" date NOT NULL,
	"dimension" text NOT NULL,
	"value" text NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "report_stat_counts_company_id_month_dimension_value_pk" PRIMARY KEY("company_id","month","dimension","value")
);
--> statement-breakpoint
CREATE TABLE "report_stat_durations" (
	"company_id" uuid NOT NULL,
	"month" date NOT NULL,
	"measure" text NOT NULL,
	"days" integer NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "report_stat_durations_company_id_month_measure_days_pk" PRIMARY KEY("company_id","month","measure","days")
);
--> statement-breakpoint
CREATE TABLE "report_stat_waiting" (
	"company_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"due_day" date NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "report_stat_waiting_company_id_kind_due_day_pk" PRIMARY KEY("company_id","kind","due_day")
);
--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "accused_department" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "reports" ADD COLUMN "relationship" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "report_stat_counts" ADD CONSTRAINT "report_stat_counts_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_stat_durations" ADD CONSTRAINT "report_stat_durations_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_stat_waiting" ADD CONSTRAINT "report_stat_waiting_company_id_companies_id_fk" FOREIGN KEY ("company_id") REFERENCES "public"."companies"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Hand-written below (drizzle cannot declare functions, triggers or partial indexes with INCLUDE).
-- The month of receipt in Korea's time zone: Korea has kept UTC+9 all year since 1988, so a fixed offset is
-- exact and needs no time-zone data.
CREATE FUNCTION report_stat_month(ts timestamptz) RETURNS date LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT date_trunc('month', (ts AT TIME ZONE 'UTC') + interval '9 hours')::date
$$;--> statement-breakpoint
-- What one report adds to `report_stat_counts`: one row per dimension, one per distinct action.
CREATE FUNCTION report_stat_rows(r reports) RETURNS TABLE (month date, dimension text, value text)
LANGUAGE sql STABLE AS $$
  SELECT report_stat_month(r.created_at), d.dimension, d.value
  FROM (
    VALUES ('total', ''), ('status', r.status), ('type', r.report_type),
           ('finding', coalesce(r.outcome_finding, '')), ('department', r.accused_department),
           ('relationship', r.relationship)
    UNION
    SELECT 'action', a FROM jsonb_array_elements_text(coalesce(r.outcome_actions, '[]'::jsonb)) AS a
  ) AS d (dimension, value)
$$;--> statement-breakpoint
-- What one report adds to `report_stat_durations`: whole days to acknowledgement and to closing, if reached.
CREATE FUNCTION report_stat_duration_rows(r reports) RETURNS TABLE (month date, measure text, days integer)
LANGUAGE sql STABLE AS $$
  SELECT report_stat_month(r.created_at), 'ack',
         greatest(0, floor(extract(epoch FROM r.acknowledged_at - r.created_at) / 86400))::integer
  WHERE r.acknowledged_at IS NOT NULL
  UNION ALL
  SELECT report_stat_month(r.created_at), 'close',
         greatest(0, floor(extract(epoch FROM r.closed_at - r.created_at) / 86400))::integer
  WHERE r.closed_at IS NOT NULL
$$;--> statement-breakpoint
-- Which deadlines one report is still waiting on, by due day (UTC): see `report_stat_waiting`.
CREATE FUNCTION report_stat_waiting_rows(r reports) RETURNS TABLE (kind text, due_day date)
LANGUAGE sql STABLE AS $$
  SELECT 'ack', (r.ack_due_at AT TIME ZONE 'UTC')::date WHERE r.acknowledged_at IS NULL
  UNION ALL
  SELECT 'feedback', (r.feedback_due_at AT TIME ZONE 'UTC')::date
  WHERE r.feedback_at IS NULL AND r.closed_at IS NULL
  UNION ALL
  SELECT 'both', (greatest(r.ack_due_at, r.feedback_due_at) AT TIME ZONE 'UTC')::date
  WHERE r.acknowledged_at IS NULL AND r.feedback_at IS NULL AND r.closed_at IS NULL
$$;--> statement-breakpoint
-- Adds `sign` (1 or -1) for each of the given rows of one company; a counter that falls to 0 is deleted, so
-- nothing of a deleted case (a department's name) stays behind in a zero row.
CREATE FUNCTION report_stats_shift(company uuid, counts jsonb, durations jsonb, waiting jsonb, sign integer)
RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  IF sign > 0 THEN
    INSERT INTO report_stat_counts AS c (company_id, month, dimension, value, count)
      SELECT company, s.month, s.dimension, s.value, 1
      FROM jsonb_to_recordset(counts) AS s (month date, dimension text, value text) ORDER BY 2, 3, 4
      ON CONFLICT (company_id, month, dimension, value) DO UPDATE SET count = c.count + 1;
    INSERT INTO report_stat_durations AS c (company_id, month, measure, days, count)
      SELECT company, s.month, s.measure, s.days, 1
      FROM jsonb_to_recordset(durations) AS s (month date, measure text, days integer) ORDER BY 2, 3, 4
      ON CONFLICT (company_id, month, measure, days) DO UPDATE SET count = c.count + 1;
    INSERT INTO report_stat_waiting AS c (company_id, kind, due_day, count)
      SELECT company, s.kind, s.due_day, 1
      FROM jsonb_to_recordset(waiting) AS s (kind text, due_day date) ORDER BY 2, 3
      ON CONFLICT (company_id, kind, due_day) DO UPDATE SET count = c.count + 1;
  ELSE
    UPDATE report_stat_counts c SET count = c.count - 1
      FROM jsonb_to_recordset(counts) AS s (month date, dimension text, value text)
      WHERE c.company_id = company AND c.month = s.month AND c.dimension = s.dimension AND c.value = s.value;
    DELETE FROM report_stat_counts c USING jsonb_to_recordset(counts) AS s (month date, dimension text, value text)
      WHERE c.company_id = company AND c.month = s.month AND c.dimension = s.dimension AND c.value = s.value
        AND c.count <= 0;
    UPDATE report_stat_durations c SET count = c.count - 1
      FROM jsonb_to_recordset(durations) AS s (month date, measure text, days integer)
      WHERE c.company_id = company AND c.month = s.month AND c.measure = s.measure AND c.days = s.days;
    DELETE FROM report_stat_durations c USING jsonb_to_recordset(durations) AS s (month date, measure text, days integer)
      WHERE c.company_id = company AND c.month = s.month AND c.measure = s.measure AND c.days = s.days
        AND c.count <= 0;
    UPDATE report_stat_waiting c SET count = c.count - 1
      FROM jsonb_to_recordset(waiting) AS s (kind text, due_day date)
      WHERE c.company_id = company AND c.kind = s.kind AND c.due_day = s.due_day;
    DELETE FROM report_stat_waiting c USING jsonb_to_recordset(waiting) AS s (kind text, due_day date)
      WHERE c.company_id = company AND c.kind = s.kind AND c.due_day = s.due_day AND c.count <= 0;
  END IF;
END
$$;--> statement-breakpoint
-- Keeps the three tables in step with `reports`, in the writer's transaction. An update touches only the rows
-- whose dimension changed (old rows EXCEPT new rows, and back), so a status change moves two counters.
-- Decrements are UPDATEs: when a company is deleted its counters may already be gone, and that is fine.
CREATE FUNCTION report_stats_apply() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  old_counts jsonb := '[]';
  old_durations jsonb := '[]';
  new_counts jsonb := '[]';
  new_durations jsonb := '[]';
  old_waiting jsonb := '[]';
  new_waiting jsonb := '[]';
BEGIN
  IF TG_OP <> 'INSERT' THEN
    old_counts := (SELECT coalesce(jsonb_agg(s), '[]') FROM report_stat_rows(OLD) s);
    old_durations := (SELECT coalesce(jsonb_agg(s), '[]') FROM report_stat_duration_rows(OLD) s);
    old_waiting := (SELECT coalesce(jsonb_agg(s), '[]') FROM report_stat_waiting_rows(OLD) s);
  END IF;
  IF TG_OP <> 'DELETE' THEN
    new_counts := (SELECT coalesce(jsonb_agg(s), '[]') FROM report_stat_rows(NEW) s);
    new_durations := (SELECT coalesce(jsonb_agg(s), '[]') FROM report_stat_duration_rows(NEW) s);
    new_waiting := (SELECT coalesce(jsonb_agg(s), '[]') FROM report_stat_waiting_rows(NEW) s);
  END IF;
  IF TG_OP = 'UPDATE' AND OLD.company_id = NEW.company_id THEN
    -- Only what changed: the rows of one side that the other side does not have.
    SELECT coalesce((SELECT jsonb_agg(e) FROM jsonb_array_elements(old_counts) e
                     WHERE NOT new_counts @> jsonb_build_array(e)), '[]'),
           coalesce((SELECT jsonb_agg(e) FROM jsonb_array_elements(new_counts) e
                     WHERE NOT old_counts @> jsonb_build_array(e)), '[]'),
           coalesce((SELECT jsonb_agg(e) FROM jsonb_array_elements(old_durations) e
                     WHERE NOT new_durations @> jsonb_build_array(e)), '[]'),
           coalesce((SELECT jsonb_agg(e) FROM jsonb_array_elements(new_durations) e
                     WHERE NOT old_durations @> jsonb_build_array(e)), '[]'),
           coalesce((SELECT jsonb_agg(e) FROM jsonb_array_elements(old_waiting) e
                     WHERE NOT new_waiting @> jsonb_build_array(e)), '[]'),
           coalesce((SELECT jsonb_agg(e) FROM jsonb_array_elements(new_waiting) e
                     WHERE NOT old_waiting @> jsonb_build_array(e)), '[]')
      INTO old_counts, new_counts, old_durations, new_durations, old_waiting, new_waiting;
  END IF;
  IF TG_OP <> 'INSERT' THEN
    PERFORM report_stats_shift(OLD.company_id, old_counts, old_durations, old_waiting, -1);
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM report_stats_shift(NEW.company_id, new_counts, new_durations, new_waiting, 1);
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER reports_stats_insert AFTER INSERT ON reports
  FOR EACH ROW EXECUTE FUNCTION report_stats_apply();--> statement-breakpoint
CREATE TRIGGER reports_stats_delete AFTER DELETE ON reports
  FOR EACH ROW EXECUTE FUNCTION report_stats_apply();--> statement-breakpoint
-- Most updates (notes, sealing, timestamps) change no dimension and skip the trigger altogether.
CREATE TRIGGER reports_stats_update AFTER UPDATE ON reports
  FOR EACH ROW
  WHEN ((OLD.company_id, OLD.created_at, OLD.status, OLD.report_type, OLD.outcome_finding, OLD.outcome_actions,
         OLD.accused_department, OLD.relationship, OLD.acknowledged_at, OLD.closed_at, OLD.feedback_at,
         OLD.ack_due_at, OLD.feedback_due_at)
        IS DISTINCT FROM
        (NEW.company_id, NEW.created_at, NEW.status, NEW.report_type, NEW.outcome_finding, NEW.outcome_actions,
         NEW.accused_department, NEW.relationship, NEW.acknowledged_at, NEW.closed_at, NEW.feedback_at,
         NEW.ack_due_at, NEW.feedback_due_at))
  EXECUTE FUNCTION report_stats_apply();--> statement-breakpoint
-- Recomputes the three tables from `reports`, for one company or (NULL) all. Writes to `reports` wait meanwhile
-- (SHARE lock until the caller's transaction ends), so no write falls between the recount and the triggers.
CREATE FUNCTION report_stats_rebuild(target uuid) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  LOCK TABLE reports IN SHARE MODE;
  DELETE FROM report_stat_counts WHERE target IS NULL OR company_id = target;
  DELETE FROM report_stat_durations WHERE target IS NULL OR company_id = target;
  DELETE FROM report_stat_waiting WHERE target IS NULL OR company_id = target;
  INSERT INTO report_stat_counts (company_id, month, dimension, value, count)
    SELECT r.company_id, s.month, s.dimension, s.value, count(*)
    FROM reports r CROSS JOIN LATERAL report_stat_rows(r) s
    WHERE target IS NULL OR r.company_id = target
    GROUP BY 1, 2, 3, 4;
  INSERT INTO report_stat_durations (company_id, month, measure, days, count)
    SELECT r.company_id, s.month, s.measure, s.days, count(*)
    FROM reports r CROSS JOIN LATERAL report_stat_duration_rows(r) s
    WHERE target IS NULL OR r.company_id = target
    GROUP BY 1, 2, 3, 4;
  INSERT INTO report_stat_waiting (company_id, kind, due_day, count)
    SELECT r.company_id, s.kind, s.due_day, count(*)
    FROM reports r CROSS JOIN LATERAL report_stat_waiting_rows(r) s
    WHERE target IS NULL OR r.company_id = target
    GROUP BY 1, 2, 3;
END
$$;--> statement-breakpoint
SELECT report_stats_rebuild(NULL);--> statement-breakpoint
-- Today's part of the overdue counts (the days before come from `report_stat_waiting`): only the cases still
-- waiting are in these, and a range of one day of them is read.
CREATE INDEX "reports_ack_waiting_idx" ON "reports" USING btree ("company_id", "ack_due_at")
  WHERE "acknowledged_at" IS NULL;--> statement-breakpoint
CREATE INDEX "reports_feedback_waiting_idx" ON "reports" USING btree ("company_id", "feedback_due_at")
  WHERE "feedback_at" IS NULL AND "closed_at" IS NULL;--> statement-breakpoint
CREATE INDEX "reports_both_waiting_idx" ON "reports" USING btree ("company_id", greatest("ack_due_at", "feedback_due_at"))
  WHERE "acknowledged_at" IS NULL AND "feedback_at" IS NULL AND "closed_at" IS NULL;
