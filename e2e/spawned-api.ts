import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * The real API server, started from source on a free port with a fresh data directory: once by the global
 * setup for the whole suite, and by a spec that needs a server of its own (mails over a real SMTP server,
 * demo accounts nobody else has used).
 */

export const ROOT = join(import.meta.dirname, '..');
export const WEB_DIST = join(ROOT, 'apps/web/dist');

export function freePort(): Promise<number> {
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

export interface SpawnedApi {
  child: ChildProcess;
  baseURL: string;
  dataDir: string;
  /** What the server printed, unless it went to `log`: the first start prints the demo accounts here. */
  output: string;
}

export interface StartApiOptions {
  /** Added to the defaults below, and winning over them (SMTP_URL, NODE_ENV, limits, …). */
  env?: Record<string, string>;
  /** Where the server's output goes instead of `output`, for a server that runs as long as the suite. */
  log?: NodeJS.WritableStream;
  /** The start of the temporary data directory's name, to tell the runs' directories apart. */
  dataDirPrefix?: string;
  timeoutMs?: number;
}

async function waitForHealth(api: SpawnedApi, timeoutMs: number): Promise<void> {
  const { child } = api;
  const exited = new Promise<never>((_, reject) => {
    child.once('exit', (code) =>
      reject(new Error(`API server exited with code ${code} before it was ready\n${api.output}`)),
    );
  });
  // Without a handler, the rejection of a server that exits after becoming healthy would go unhandled.
  exited.catch(() => {});
  const deadline = Date.now() + timeoutMs;
  const healthy = (async () => {
    while (Date.now() < deadline && child.exitCode === null) {
      const ok = await fetch(`${api.baseURL}/api/health`)
        .then((response) => response.ok)
        .catch(() => false);
      if (ok) return;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    if (child.exitCode === null)
      throw new Error(`API server not healthy at ${api.baseURL} after ${timeoutMs} ms\n${api.output}`);
  })();
  await Promise.race([healthy, exited]);
}

/**
 * Starts `apps/api/src/server.ts` and resolves once `/api/health` answers. Development mode by default: the
 * first start seeds the demo company and prints the demo accounts with their one-time passwords.
 */
export async function startApi(options: StartApiOptions = {}): Promise<SpawnedApi> {
  const port = await freePort();
  const baseURL = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(join(tmpdir(), options.dataDirPrefix ?? 'ansim-e2e-spawned-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/server.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      PUBLIC_URL: baseURL,
      NODE_ENV: 'development',
      WEB_DIST,
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const api: SpawnedApi = { child, baseURL, dataDir, output: '' };
  if (options.log) {
    child.stdout!.pipe(options.log);
    child.stderr!.pipe(options.log);
  } else {
    const keep = (chunk: Buffer) => {
      api.output += chunk.toString('utf8');
    };
    child.stdout!.on('data', keep);
    child.stderr!.on('data', keep);
  }
  try {
    await waitForHealth(api, options.timeoutMs ?? 90_000);
  } catch (error) {
    await stopApi(api);
    throw error;
  }
  return api;
}

/** Stops the server (SIGTERM, as a deployment would) and waits for it to exit; then removes its data. */
export async function stopApi(api: SpawnedApi, { keepData = false } = {}): Promise<void> {
  if (api.child.exitCode === null && api.child.signalCode === null) {
    const exited = new Promise((resolve) => api.child.once('exit', resolve));
    api.child.kill('SIGTERM');
    await exited;
  }
  if (!keepData && !process.env.E2E_KEEP_DATA) rmSync(api.dataDir, { recursive: true, force: true });
}

/** A demo account's one-time password, as the server printed it at its first start (stdout or its log). */
export function demoPassword(output: string, email: string): string {
  const match = new RegExp(`${email.replace(/[.]/g, '\\.')}\\s+비밀번호 password: (\\S+)`).exec(output);
  if (!match) throw new Error(`The server printed no demo account ${email} (was the data directory fresh?)`);
  return match[1]!;
}
