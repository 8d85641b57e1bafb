import { createWriteStream, existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ARTIFACTS, TOTP_SECRETS_FILE, writeServerState } from './server-state';
import { startApi, WEB_DIST } from './spawned-api';

/** Starts the real server on a free port with a fresh data directory, serving the freshly built web app. */
export default async function globalSetup(): Promise<void> {
  if (!existsSync(join(WEB_DIST, 'index.html')))
    throw new Error('apps/web/dist is missing: run `npm run build` first');
  mkdirSync(ARTIFACTS, { recursive: true });
  const logFile = join(ARTIFACTS, 'server.log');
  const api = await startApi({
    dataDirPrefix: 'ansim-e2e-',
    log: createWriteStream(logFile),
    env: {
      NODE_ENV: 'test',
      // The server's own default, not the quieter level of a spec's server: a failed spec is read against this log.
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
      // A small upload limit lets the wizard spec show the 413 message with a 6 MB file instead of 51 MB.
      MAX_FILE_BYTES: process.env.MAX_FILE_BYTES ?? String(5 * 1024 * 1024),
      // Notices to an anonymous reporter's private address leave at once, so a spec can wait for them.
      ANONYMOUS_NOTICE_DELAY_MAX_SECONDS: '0',
      // Every spec's browser registers from 127.0.0.1: the per-IP limit of account mails would stop the suite.
      ACCOUNT_REQUESTS_PER_IP_PER_HOUR: '100000',
      // Logins, receipt look-ups and intake pages of every spec come from 127.0.0.1 too.
      LOGIN_LIMIT_PER_IP_PER_MINUTE: '1000',
      RECEIPT_LIMIT_PER_IP_PER_HOUR: '100000',
      INTAKE_LOOKUPS_PER_IP_PER_HOUR: '100000',
      // Every spec's uploads come from 127.0.0.1 as well.
      UPLOADS_PER_IP_PER_HOUR: '100000',
      // session.spec moves the server's session clock with PUT /api/test/clock (refused outside NODE_ENV=test).
      TEST_CLOCK_ROUTE: 'true',
    },
  });
  writeServerState({ baseURL: api.baseURL, dataDir: api.dataDir, pid: api.child.pid!, logFile });
  // A fresh database: second factors enrolled by an earlier run are gone with it.
  rmSync(TOTP_SECRETS_FILE, { force: true });
  api.child.unref();
}
