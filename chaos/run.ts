// `npm run chaos`: fault injection against the real server process, a real PostgreSQL cluster of its own and a
// real SMTP server. Prints each figure and a PASS/FAIL line per scenario; exits non-zero on any FAIL.
//
// CHAOS_ROUNDS (20), CHAOS_CLIENTS (100), CHAOS_KILL_JITTER_MS (30), CHAOS_PG_DOWN_SECONDS (10),
// CHAOS_SMTP_DOWN_SECONDS (60), CHAOS_SMTP_MAILS (20), CHAOS_SCENARIOS (e.g. "1,3") shrink or pick the run.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../apps/api/src/db/client.ts';
import { freePort } from '../bench/lib.ts';
import { seedAccounts } from './client.ts';
import { ApiProcess, SmtpSink, ThrowawayPostgres } from './infra.ts';
import {
  type Chaos,
  drainOnSigterm,
  killDuringSubmissions,
  smtpOutage,
  stopDatabaseUnderLoad,
} from './scenarios.ts';

function numberFromEnv(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number`);
  return value;
}

const rounds = numberFromEnv('CHAOS_ROUNDS', 20);
const clients = numberFromEnv('CHAOS_CLIENTS', 100);
const killJitterMs = numberFromEnv('CHAOS_KILL_JITTER_MS', 30);
const pgDownSeconds = numberFromEnv('CHAOS_PG_DOWN_SECONDS', 10);
const smtpDownSeconds = numberFromEnv('CHAOS_SMTP_DOWN_SECONDS', 60);
const smtpMails = numberFromEnv('CHAOS_SMTP_MAILS', 20);
const scenarios = new Set((process.env.CHAOS_SCENARIOS ?? '1,2,3,4').split(',').map((s) => s.trim()));
/** Retries start after a second and double, so a mail queued in an outage is tried soon after it ends. */
const MAIL_RETRY_BASE_SECONDS = 1;

function errorText(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/**
 * Errors thrown where nothing awaits them (an event emitter without a listener, a promise nobody holds). The
 * faults this run injects must never end it: such an error is recorded, fails the run, and the run goes on.
 */
const strayErrors: string[] = [];
for (const event of ['uncaughtException', 'unhandledRejection'] as const) {
  process.on(event, (error: unknown) => {
    strayErrors.push(errorText(error));
    console.error(`chaos: ${event}: ${errorText(error)}`);
  });
}

/** Puts back what a failed scenario may have left down, so the next scenario starts from a working set-up. */
async function repair(chaos: Chaos): Promise<void> {
  try {
    if (!chaos.smtp.isUp) await chaos.smtp.start();
    try {
      chaos.postgres.start();
    } catch {
      // Already running: pg_ctl refuses a second start.
    }
    if (!chaos.api.pid) await chaos.api.start();
  } catch (error) {
    console.info(`chaos: could not restore the set-up after a failed scenario: ${errorText(error)}`);
  }
}

async function main(): Promise<boolean> {
  const started = Date.now();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ansim-chaos-data-'));
  const postgres = await ThrowawayPostgres.create();
  const smtp = await SmtpSink.create();
  let api: ApiProcess | undefined;
  try {
    postgres.start();
    const databaseUrl = postgres.url;
    // Migrations and the accounts come first, through the product's own functions.
    const database = await openDatabase({ kind: 'postgres', url: databaseUrl, max: 2 });
    const accounts = await seedAccounts(database, Math.max(clients, smtpMails, 10));
    await database.close();

    const port = await freePort();
    api = new ApiProcess(port, {
      HOST: '127.0.0.1',
      NODE_ENV: 'production',
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      SECRET_KEY: 'chaos-secret-key-chaos-secret-key-0123456789',
      ENCRYPTION_KEY: 'c4'.repeat(32),
      SMTP_URL: smtp.url,
      MAIL_RETRY_BASE_SECONDS: String(MAIL_RETRY_BASE_SECONDS),
      MAIL_POLL_MS: '250',
      LOG_LEVEL: process.env.CHAOS_LOG_LEVEL ?? 'fatal',
      LOGIN_LIMIT_PER_IP_PER_MINUTE: '1000000',
      RECEIPT_LIMIT_PER_IP_PER_HOUR: '1000000',
      INTAKE_LOOKUPS_PER_IP_PER_HOUR: '1000000',
      // Registrations and reset requests of the SMTP scenario all come from this machine.
      ACCOUNT_REQUESTS_PER_IP_PER_HOUR: '1000000',
      MAILS_PER_ADDRESS_PER_HOUR: '1000000',
      // Every submitter uploads its evidence from this machine, thousands an hour under one account each.
      UPLOADS_PER_IP_PER_HOUR: '1000000',
      UPLOADS_PER_CALLER_PER_HOUR: '1000000',
    });
    await api.start();
    const chaos: Chaos = { postgres, smtp, api, databaseUrl, dataDir, accounts, mailHost: '127.0.0.1' };
    console.info(
      `chaos: PostgreSQL 15 on :${postgres.port} (throwaway), SMTP on :${smtp.port}, API PID ${api.pid} on :${port}`,
    );

    const results: boolean[] = [];
    /**
     * A scenario that throws (a check that could not read the database, a restart that failed) is that
     * scenario's FAIL, not the end of the run: the next ones still run on a repaired set-up, and the totals print.
     */
    const run = async (name: string, scenario: () => Promise<boolean>) => {
      try {
        results.push(await scenario());
      } catch (error) {
        console.info(`FAIL  ${name}: the scenario stopped on ${errorText(error)}`);
        results.push(false);
        await repair(chaos);
      }
    };
    if (scenarios.has('1'))
      await run('SIGKILL under concurrent submissions', () =>
        killDuringSubmissions(chaos, { rounds, clients, killJitterMs, mailBoundMs: 60_000 }),
      );
    if (scenarios.has('2'))
      await run('PostgreSQL stopped with -m immediate', () =>
        stopDatabaseUnderLoad(chaos, {
          clients: Math.min(clients, 20),
          downSeconds: pgDownSeconds,
          recoveryBoundMs: 30_000,
        }),
      );
    if (scenarios.has('3'))
      await run('SMTP server outage', () =>
        smtpOutage(chaos, {
          downSeconds: smtpDownSeconds,
          mails: smtpMails,
          // Backoff doubles, so the retry due after the outage is at most about as far off as the outage lasted.
          deliveryBoundMs: (smtpDownSeconds * 1.2 + 10) * 1000,
        }),
      );
    if (scenarios.has('4'))
      await run('SIGTERM drains in-flight requests', () => drainOnSigterm(chaos, { inFlight: 16 }));
    if (strayErrors.length > 0) {
      console.info(`FAIL  runner: ${strayErrors.length} error(s) no scenario caught: ${strayErrors[0]}`);
      results.push(false);
    }
    const passed = results.filter(Boolean).length;
    console.info(
      `\nchaos: ${passed}/${results.length} scenarios passed in ${((Date.now() - started) / 1000).toFixed(0)} s`,
    );
    return passed === results.length;
  } finally {
    if (api?.pid) await api.kill('SIGKILL');
    await smtp.stop();
    postgres.destroy();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(
  (ok) => process.exit(ok ? 0 : 1),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
