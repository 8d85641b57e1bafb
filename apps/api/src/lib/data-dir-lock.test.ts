import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { DataDirInUseError, lockDataDir } from './data-dir-lock.ts';

const lockModule = fileURLToPath(new URL('./data-dir-lock.ts', import.meta.url));
const children: ChildProcess[] = [];
const dirs: string[] = [];

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ansim-lock-'));
  dirs.push(dir);
  return dir;
}

/** Another process that takes the lock through the same code and keeps it until killed. */
async function holdLockInChild(dir: string): Promise<ChildProcess> {
  const script = `import { lockDataDir } from ${JSON.stringify(lockModule)};
lockDataDir(${JSON.stringify(dir)}); console.log('locked'); setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('locked')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`lock holder exited with ${code}`)));
  });
  return child;
}

afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('lockDataDir', () => {
  it('refuses a directory another live process holds, naming the way out', async () => {
    const dir = tempDir();
    const holder = await holdLockInChild(dir);
    expect(() => lockDataDir(dir)).toThrow(DataDirInUseError);
    expect(() => lockDataDir(dir)).toThrow(/is in use .*Stop the server first, or use PostgreSQL/);
    expect(fs.readFileSync(path.join(dir, '.lock'), 'utf8')).toBe(String(holder.pid));

    // Once the holder is gone (here: killed, so it never released), its lock is stale and taken over.
    const exited = new Promise((resolve) => holder.once('exit', resolve));
    holder.kill('SIGKILL');
    await exited;
    const release = lockDataDir(dir);
    expect(fs.readFileSync(path.join(dir, '.lock'), 'utf8')).toBe(String(process.pid));
    release();
    expect(fs.existsSync(path.join(dir, '.lock'))).toBe(false);
  }, 180_000);

  it('takes over a lock left by a dead process or holding garbage', () => {
    const dir = tempDir();
    const dead = spawnSync(process.execPath, ['-e', '']).pid!;
    fs.writeFileSync(path.join(dir, '.lock'), String(dead));
    lockDataDir(dir)();
    fs.writeFileSync(path.join(dir, '.lock'), 'not a pid');
    const release = lockDataDir(dir);
    expect(fs.readFileSync(path.join(dir, '.lock'), 'utf8')).toBe(String(process.pid));
    release();
  });

  it('creates the directory and releases only its own lock', () => {
    const dir = path.join(tempDir(), 'nested', 'data');
    const release = lockDataDir(dir);
    expect(fs.existsSync(path.join(dir, '.lock'))).toBe(true);
    // Someone else took the directory over meanwhile: releasing must not delete their lock.
    fs.writeFileSync(path.join(dir, '.lock'), '999999999');
    release();
    expect(fs.readFileSync(path.join(dir, '.lock'), 'utf8')).toBe('999999999');
  });
});
