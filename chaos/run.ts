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
      // Registrations and reset requests of the SMTP scenario all come from this machine.
      ACCOUNT_REQUESTS_PER_IP_PER_HOUR: '1000000',
      MAILS_PER_ADDRESS_PER_HOUR: '1000000',
    });
    await api.start();
    const chaos: Chaos = { postgres, smtp, api, databaseUrl, dataDir, accounts, mailHost: '127.0.0.1' };
    console.info(
      `chaos: PostgreSQL 15 on :${postgres.port} (throwaway), SMTP on :${smtp.port}, API PID ${api.pid} on :${port}`,
    );

    const results: boolean[] = [];
    if (scenarios.has('1'))
      results.push(
        await killDuringSubmissions(chaos, { rounds, clients, killJitterMs, mailBoundMs: 60_000 }),
      );
    if (scenarios.has('2'))
      results.push(
        await stopDatabaseUnderLoad(chaos, {
          clients: Math.min(clients, 20),
          downSeconds: pgDownSeconds,
          recoveryBoundMs: 30_000,
        }),
      );
    if (scenarios.has('3'))
      results.push(
        await smtpOutage(chaos, {
          downSeconds: smtpDownSeconds,
          mails: smtpMails,
          // Backoff doubles, so the retry due after the outage is at most about as far off as the outage lasted.
          deliveryBoundMs: (smtpDownSeconds * 1.2 + 10) * 1000,
        }),
      );
    if (scenarios.has('4')) results.push(await drainOnSigterm(chaos, { inFlight: 16 }));
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
