import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';

export const CASE_EVENTS_CHANNEL = 'case_events';

/**
 * Announces that a case changed. Sent inside the change's transaction, so listeners hear of it only once it
 * is committed, and never of a change that was rolled back. The payload is the case id, nothing more.
 */
export async function announceCaseChange(executor: Pick<Db, 'execute'>, reportId: string): Promise<void> {
  await executor.execute(sql`SELECT pg_notify(${CASE_EVENTS_CHANNEL}, ${reportId})`);
}
