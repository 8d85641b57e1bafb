import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ARTIFACTS, TOTP_SECRETS_FILE, writeServerState } from './server-state';

const ROOT = join(import.meta.dirname, '..');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

async function waitForHealth(
  url: string,
  child: { exitCode: number | null },
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`API server exited with code ${child.exitCode} before it was ready`);
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`API server not healthy at ${url} after ${timeoutMs} ms`);
}

/** Starts the real server on a free port with a fresh data directory, serving the freshly built web app. */
export default async function globalSetup(): Promise<void> {
  const webDist = join(ROOT, 'apps/web/dist');
  if (!existsSync(join(webDist, 'index.html')))
    throw new Error('apps/web/dist is missing: run `npm run build` first');
  const port = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'ansim-e2e-'));
  mkdirSync(ARTIFACTS, { recursive: true });
  const logFile = join(ARTIFACTS, 'server.log');
  const log = createWriteStream(logFile);
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/server.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      PUBLIC_URL: baseURL,
      NODE_ENV: 'test',
      WEB_DIST: webDist,
      // A small upload limit lets the wizard spec show the 413 message with a 6 MB file instead of 51 MB.
      MAX_FILE_BYTES: process.env.MAX_FILE_BYTES ?? String(5 * 1024 * 1024),
      // Notices to an anonymous reporter's private address leave at once, so a spec can wait for them.
      ANONYMOUS_NOTICE_DELAY_MAX_SECONDS: '0',
      // Every spec's browser registers from 127.0.0.1: the per-IP limit of account mails would stop the suite.
      ACCOUNT_REQUESTS_PER_IP_PER_HOUR: '100000',
      // Logins (and receipt look-ups, on the same counter) of every spec come from 127.0.0.1 too.
      LOGIN_LIMIT_PER_IP_PER_MINUTE: '1000',
      // session.spec moves the server's session clock with PUT /api/test/clock (refused outside NODE_ENV=test).
      TEST_CLOCK_ROUTE: 'true',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.pipe(log);
  child.stderr.pipe(log);
  await waitForHealth(`${baseURL}/api/health`, child, 90_000);
  writeServerState({ baseURL, dataDir, pid: child.pid!, logFile });
  // A fresh database: second factors enrolled by an earlier run are gone with it.
  rmSync(TOTP_SECRETS_FILE, { force: true });
  child.unref();
}
