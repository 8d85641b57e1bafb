import { buildApp, loggerOptions } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { openDatabase } from './db/client.ts';
import { indexAccusedEmails } from './domain/manager/conflicts.ts';
import { startRetention } from './domain/reports/retention.ts';
import { unlinkAnonymousReports } from './domain/reports/unlink-anonymous-reports.ts';
import { resealColumns } from './encryption/codec.ts';
import { DataDirInUseError, lockDataDir } from './lib/data-dir-lock.ts';
import { startMailWorker } from './mail/worker.ts';
import { startPruning } from './maintenance.ts';
import { formatDemoSeed, seedDemoData } from './seed.ts';
import { s3OptionsFromConfig } from './storage/create-file-store.ts';
import { ensureS3Bucket } from './storage/s3-file-store.ts';

async function main(): Promise<void> {
  const config = loadConfig();
  // A wrong endpoint or key stops the start here, with S3's answer, instead of failing the first upload.
  if (config.FILE_STORE === 's3') await ensureS3Bucket(s3OptionsFromConfig(config));
  const releaseLock = config.DATABASE_URL ? () => {} : lockDataDir(config.dataDir);
  const database = await openDatabase(
    config.DATABASE_URL
      ? { kind: 'postgres', url: config.DATABASE_URL }
      : { kind: 'pglite', dataDir: `${config.dataDir}/db` },
  );
  const demo = await seedDemoData(database, config);
  if (demo) console.info(formatDemoSeed(demo));
  const app = await buildApp({ config, database, logger: loggerOptions(config) });

  let stopBackground: () => Promise<void> = async () => {};
  let shuttingDown = false;
  const shutdown = async (signal: string) => {
    if (shuttingDown) return;
    shuttingDown = true;
    app.log.info({ signal }, 'shutting down: draining requests');
    let exitCode = 0;
    try {
      await app.close();
      // After the requests (they may enqueue mail) and before the database: a send in flight is finished and
      // recorded, not cut off and left to its lease.
      await stopBackground();
      await database.close();
    } catch (error) {
      exitCode = 1;
      console.error('Shutdown failed:', error);
    } finally {
      releaseLock();
      process.exit(exitCode);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  // Before serving anything: anonymous reports from before decision 0005 lose their account links.
  const unlinked = await unlinkAnonymousReports(database);
  if (unlinked > 0) app.log.info({ count: unlinked }, 'unlinked anonymous reports from their accounts');
  await app.listen({ port: config.PORT, host: config.HOST });
  const logger = app.log.child({ component: 'background' });
  const mailWorker = startMailWorker({ database, config, logger });
  const stopPruning = startPruning({ database, config, logger, fileStore: app.deps.fileStore });
  const stopRetention = startRetention({ database, fileStore: app.deps.fileStore, logger });
  // Rows stored before encryption at rest (an older data directory) are sealed once, in the background.
  const sealing = resealColumns(database, { mode: 'plaintext' })
    .then(
      (count) => count > 0 && logger.info({ count }, 'sealed values stored before encryption at rest'),
      (error: unknown) => logger.warn({ error: (error as Error).message }, 'sealing older values failed'),
    )
    // After the sealing, which gives a company of plaintext forms its key: reports from before migration 0014
    // get their accused e-mail's blind index, so a later handler with that address is excluded from them.
    .then(() => indexAccusedEmails(database))
    .then(
      (count) => count > 0 && logger.info({ count }, 'indexed the accused e-mail of older reports'),
      (error: unknown) => logger.warn({ error: (error as Error).message }, 'indexing accused e-mails failed'),
    );
  stopBackground = async () => {
    await Promise.all([mailWorker.stop(), stopPruning(), stopRetention(), sealing]);
  };
  app.log.info(`안심신고 is running at ${config.PUBLIC_URL} (${database.kind})`);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof DataDirInUseError) {
    console.error(error.message);
  } else {
    console.error('Failed to start:', error);
  }
  process.exit(1);
});
