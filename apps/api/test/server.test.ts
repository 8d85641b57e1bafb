import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import fs from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CSRF_HEADER } from '@ansim/shared/constants';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { TEST_DB } from './helpers.ts';

const repoRoot = fileURLToPath(new URL('../../../', import.meta.url));

async function freePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', () => resolve()));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

interface ServerProcess {
  child: ChildProcessWithoutNullStreams;
  output: { stdout: string; stderr: string };
  exited: Promise<number | null>;
}

function startServer(dataDir: string, port: number): ServerProcess {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'development',
    DATA_DIR: dataDir,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
  };
  delete env.DATABASE_URL;
  delete env.SMTP_URL;
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/server.ts'], {
    cwd: repoRoot,
    env,
  });
  const output = { stdout: '', stderr: '' };
  child.stdout.on('data', (chunk: Buffer) => {
    output.stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output.stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return { child, output, exited };
}

async function waitForHealth(port: number, server: ServerProcess, timeoutMs = 40_000): Promise<Response> {
  // A server that dies while starting ends the wait at once instead of after the whole timeout.
  const died = server.exited.then(() => {
    throw new Error(`server exited: ${server.output.stderr}`);
  });
  return Promise.race([
    vi.waitFor(() => fetch(`http://127.0.0.1:${port}/api/health`), { timeout: timeoutMs, interval: 100 }),
    died,
  ]);
}

// The server is started as `npm start` would, on the embedded database; once is enough.
describe.skipIf(TEST_DB !== 'pglite')('server start-up (spawned)', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ansim-server-'));
  const running: ServerProcess[] = [];

  afterAll(() => {
    for (const server of running) server.child.kill('SIGKILL');
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('seeds and prints the demo accounts, answers /api/health, keeps the data directory to itself and stops on SIGTERM', async () => {
    const port = await freePort();
    const server = startServer(dataDir, port);
    running.push(server);
    const health = await waitForHealth(port, server);
    expect(health.status).toBe(200);

    expect(server.output.stdout).toContain('Demo accounts created');
    expect(server.output.stdout).toMatch(/manager@demo\.example\s+비밀번호 password: \S{16,}/);
    expect(server.output.stdout).toMatch(/member@demo\.example\s+비밀번호 password: \S{16,}/);
    expect(fs.readFileSync(path.join(dataDir, '.lock'), 'utf8')).toBe(String(server.child.pid));

    // The mail worker runs: a registration's confirmation mail lands in DATA_DIR/mail without SMTP.
    const base = `http://127.0.0.1:${port}`;
    const csrf = await fetch(`${base}/api/csrf`);
    const csrfToken = /csrftoken=([^;]+)/.exec(csrf.headers.get('set-cookie') ?? '')?.[1];
    const registered = await fetch(`${base}/api/v1/user/`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        cookie: `csrftoken=${csrfToken}`,
        [CSRF_HEADER]: csrfToken!,
      },
      body: JSON.stringify({
        email: 'new.hire@demo.example',
        password: '안전한-비밀번호-2026!',
        name: '신입',
      }),
    });
    expect(registered.status).toBe(201);
    const mailDir = path.join(dataDir, 'mail');
    await vi.waitFor(
      () => {
        expect(fs.existsSync(mailDir) && fs.readdirSync(mailDir).some((f) => f.endsWith('.eml'))).toBe(true);
      },
      { timeout: 30_000, interval: 100 },
    );
    expect(server.output.stdout).toContain('dev mail written');
    expect(server.output.stdout).not.toContain('token=');

    const second = startServer(dataDir, await freePort());
    running.push(second);
    expect(await second.exited).toBe(1);
    expect(second.output.stderr.trim().split('\n')).toHaveLength(1);
    expect(second.output.stderr).toContain(`is in use by another process (pid ${server.child.pid})`);
    expect(second.output.stderr).toContain('Stop the server first, or use PostgreSQL');

    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(fs.existsSync(path.join(dataDir, '.lock'))).toBe(false);
    expect(server.output.stdout).toContain('shutting down');
  }, 180_000);
});
