import path from 'node:path';
import type { BaseLogger } from 'pino';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import { sweepOrphanFiles } from './domain/files/sweep-orphans.ts';
import { pruneIntakeSessions } from './domain/intake/intake-sessions.ts';
import { sendDeadlineDigests } from './domain/manager/deadline-digest.ts';
import { pruneMfaChallenges } from './domain/mfa/challenges.ts';
import { pruneRateLimits } from './domain/rate-limits/rate-limits.ts';
import { pruneReceiptSessions } from './domain/reports/receipts.ts';
import { pruneExpiredSessions } from './domain/sessions/sessions.ts';
import type { FileStore } from './storage/file-store.ts';

/** Delivered mails still hold their one-time links; a week is long enough to answer "did it go out?". */
const SENT_MAIL_RETENTION_DAYS = 7;

/**
 * Deletes rows nothing will read again. Every check already refuses expired rows on its own, so this only
 * keeps the tables small; with several API processes each runs it, and the deletes are harmless to repeat.
 */
export async function pruneExpiredRows(database: Database, config: Config): Promise<void> {
  await pruneExpiredSessions(database, config);
  await pruneRateLimits(database);
  await pruneIntakeSessions(database);
  await pruneReceiptSessions(database);
  await pruneMfaChallenges(database);
  await database.query('DELETE FROM captcha_solutions WHERE expires_at < now()');
  await database.query(
    `DELETE FROM mail_outbox WHERE status = 'sent' AND sent_at < now() - make_interval(days => $1)`,
    [SENT_MAIL_RETENTION_DAYS],
  );
}

/**
 * Prunes now and then every `intervalMs`. The returned stop waits for a prune in progress, so the database
 * can be closed right after it.
 */
export function startPruning(options: {
  database: Database;
  config: Config;
  logger: Pick<BaseLogger, 'warn'>;
  intervalMs?: number;
  /** With a file store, also sweeps what a crash left in it; at start, that is right after the crash. */
  fileStore?: Pick<FileStore, 'keys' | 'remove'>;
}): () => Promise<void> {
  let current: Promise<void> = Promise.resolve();
  const run = () => {
    const pruning = pruneExpiredRows(options.database, options.config).catch((error: unknown) => {
      options.logger.warn({ error: (error as Error).message }, 'pruning expired rows failed');
    });
    // Once a day per handler (users.digest_sent_at): the first run of each Korean day sends, later runs find
    // nobody left, and a case that falls due later in the day reaches a handler who had nothing in the morning.
    const digests = sendDeadlineDigests(options.database, options.config).then(
      () => {},
      (error: unknown) => {
        options.logger.warn({ error: (error as Error).message }, 'sending deadline digests failed');
      },
    );
    const { fileStore } = options;
    const sweeping = fileStore
      ? sweepOrphanFiles(
          options.database,
          fileStore,
          path.join(options.config.dataDir, 'files', '.tmp'),
        ).then(
          () => {},
          (error: unknown) => {
            options.logger.warn({ error: (error as Error).message }, 'sweeping orphan files failed');
          },
        )
      : undefined;
    current = Promise.all([pruning, sweeping, digests]).then(() => {});
  };
  run();
  const timer = setInterval(run, options.intervalMs ?? 10 * 60_000);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await current;
  };
}
