ALTER TABLE "case_counters" DISABLE ROW LEVEL SECURITY;--> statement-breakpoint
DROP TABLE "case_counters" CASCADE;--> statement-breakpoint
ALTER TABLE "companies" ALTER COLUMN "intake_code" SET DEFAULT substr(replace(gen_random_uuid()::text, '-', ''), 1, 12) || substr(replace(gen_random_uuid()::text, '-', ''), 1, 12);--> statement-breakpoint
-- Decision 0030: sequential case numbers (2026-0001, 2026-0002, ...) become random references (2026-K7M3QX),
-- so an excluded handler cannot find a hidden case as a gap in their list. Each existing case gets six
-- Crockford base32 characters from gen_random_uuid()'s random bytes (bytes 0-5, before the version byte; 256 is
-- a multiple of 32, so each character is uniform), drawn again while the company already has it. The year stays.
-- Deletion records get references of the same shape: their old numbers would still count the company's cases.
DO $$
DECLARE
  row_to_number record;
  reference text;
BEGIN
  FOR row_to_number IN
    SELECT id, company_id, split_part(case_number, '-', 1) AS year FROM reports WHERE case_number ~ '^\d{4}-\d+$'
  LOOP
    LOOP
      SELECT row_to_number.year || '-' || string_agg(substr('0123456789ABCDEFGHJKMNPQRSTVWXYZ', 1 + get_byte(bytes, i) % 32, 1), '' ORDER BY i)
        INTO reference
        FROM (SELECT uuid_send(gen_random_uuid()) AS bytes) AS drawn, generate_series(0, 5) AS i;
      EXIT WHEN NOT EXISTS (SELECT 1 FROM reports WHERE company_id = row_to_number.company_id AND case_number = reference);
    END LOOP;
    UPDATE reports SET case_number = reference WHERE id = row_to_number.id;
  END LOOP;
  FOR row_to_number IN
    SELECT id, split_part(case_number, '-', 1) AS year FROM case_deletions WHERE case_number ~ '^\d{4}-\d+$'
  LOOP
    SELECT row_to_number.year || '-' || string_agg(substr('0123456789ABCDEFGHJKMNPQRSTVWXYZ', 1 + get_byte(bytes, i) % 32, 1), '' ORDER BY i)
      INTO reference
      FROM (SELECT uuid_send(gen_random_uuid()) AS bytes) AS drawn, generate_series(0, 5) AS i;
    UPDATE case_deletions SET case_number = reference WHERE id = row_to_number.id;
  END LOOP;
END $$;
