// The real things the chaos run breaks: a throwaway PostgreSQL cluster it may stop with `-m immediate`, an
// in-process SMTP server it may take down, and the API server process it kills and restarts.

import { type ChildProcess, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import { freePort, startProcess, waitForHttp } from '../bench/lib.ts';

const PG_BIN = process.env.CHAOS_PG_BIN ?? '/usr/lib/postgresql/15/bin';

/**
 * A cluster of its own, never the shared server on 5432: stopping that one would break everyone else's work.
 * PostgreSQL refuses to run as root, so every command runs as the postgres user in a directory it owns.
 */
export class ThrowawayPostgres {
  readonly root: string;
  readonly dataDir: string;
  readonly port: number;

  private constructor(root: string, port: number) {
    this.root = root;
    this.dataDir = path.join(root, 'data');
    this.port = port;
  }

  static async create(): Promise<ThrowawayPostgres> {
    // The server binaries come from Debian's postgresql-15 package (a machine with only the client lacks them).
    if (!fs.existsSync(path.join(PG_BIN, 'initdb')) || !fs.existsSync(path.join(PG_BIN, 'pg_ctl')))
      throw new Error(
        `no PostgreSQL server binaries in ${PG_BIN}: install them (apt-get install postgresql-15) or point CHAOS_PG_BIN at them`,
      );
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ansim-chaos-pg-'));
    execFileSync('chown', ['postgres:postgres', root]);
    const cluster = new ThrowawayPostgres(root, await freePort());
    cluster.asPostgres('initdb', ['-D', cluster.dataDir, '-A', 'trust', '-U', 'postgres', '--no-sync']);
    return cluster;
  }

  get url(): string {
    return `postgres://postgres@127.0.0.1:${this.port}/postgres`;
  }

  start(): void {
    this.asPostgres('pg_ctl', [
      '-D',
      this.dataDir,
      '-l',
      path.join(this.root, 'server.log'),
      '-w',
      '-t',
      '60',
      '-o',
      `-p ${this.port} -k ${this.root} -c listen_addresses=127.0.0.1 -c max_connections=200`,
      'start',
    ]);
  }

  /** Like a power cut for the database: no checkpoint, connections dropped, crash recovery at the next start. */
  stopImmediately(): void {
    this.asPostgres('pg_ctl', ['-D', this.dataDir, '-m', 'immediate', '-w', 'stop']);
  }

  destroy(): void {
    try {
      this.asPostgres('pg_ctl', ['-D', this.dataDir, '-m', 'fast', '-w', 'stop']);
    } catch {
      // Already stopped.
    }
    fs.rmSync(this.root, { recursive: true, force: true });
  }

  private asPostgres(command: string, args: string[]): void {
    execFileSync('runuser', ['-u', 'postgres', '--', path.join(PG_BIN, command), ...args], {
      cwd: this.root,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
  }
}

/** An SMTP server in this process that keeps every message it accepts, and can be taken down and back up. */
export class SmtpSink {
  readonly port: number;
  /** Message-ID header → how many times it arrived (an at-least-once retry may bring one twice). */
  readonly received = new Map<string, number>();
  private server: SMTPServer | undefined;

  private constructor(port: number) {
    this.port = port;
  }

  static async create(): Promise<SmtpSink> {
    const sink = new SmtpSink(await freePort());
    await sink.start();
    return sink;
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  get isUp(): boolean {
    return this.server !== undefined;
  }

  start(): Promise<void> {
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      closeTimeout: 100,
      onData: (stream, _session, callback) => {
        const chunks: Buffer[] = [];
        // A client killed mid-message cuts the stream: that mail was never accepted, so it is not counted.
        stream.on('error', (error) => callback(error));
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const headers =
            Buffer.concat(chunks)
              .toString('utf8')
              .split(/\r?\n\r?\n/)[0] ?? '';
          const messageId = /^message-id:\s*(\S+)/im.exec(headers)?.[1] ?? '';
          this.received.set(messageId, (this.received.get(messageId) ?? 0) + 1);
          callback();
        });
      },
    });
    this.server = server;
    return new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => {
        // After start-up, a connection reset by a killed API process is an expected fault, not the runner's
        // crash: without a listener an 'error' event would throw out of the whole chaos run.
        server.off('error', reject);
        server.on('error', () => {});
        resolve();
      });
    });
  }

  /** Refuses connections from now on; a session in progress is cut, as when a relay goes away. */
  stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return Promise.resolve();
    return new Promise((resolve) => server.close(() => resolve()));
  }
}

/** The real API server process (`apps/api/src/server.ts`), killed and restarted on the same port and data. */
export class ApiProcess {
  readonly port: number;
  readonly env: Record<string, string>;
  child: ChildProcess | undefined;
  starts = 0;

  constructor(port: number, env: Record<string, string>) {
    this.port = port;
    this.env = env;
  }

  get base(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get pid(): number | undefined {
    return this.child?.exitCode === null && this.child.signalCode === null ? this.child.pid : undefined;
  }

  async start(): Promise<void> {
    const child = startProcess('apps/api/src/server.ts', { ...this.env, PORT: String(this.port) });
    // A failed spawn or a signal sent to a process already gone is reported as 'error': without a listener it
    // would throw out of the runner instead of failing the scenario that caused it.
    child.on('error', (error) => console.error(`chaos: API process error: ${error.message}`));
    this.child = child;
    this.starts += 1;
    await Promise.race([
      waitForHttp(`${this.base}/api/health`),
      new Promise((_, reject) =>
        child.once('exit', (code) => reject(new Error(`API exited with ${code} while starting`))),
      ),
    ]);
  }

  /** Resolves with the exit code (or the signal's name) once the process is gone. */
  exited(): Promise<number | string> {
    const child = this.child;
    if (!child) return Promise.resolve(0);
    if (child.exitCode !== null) return Promise.resolve(child.exitCode);
    if (child.signalCode !== null) return Promise.resolve(child.signalCode);
    return new Promise((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)));
  }

  async kill(signal: NodeJS.Signals): Promise<number | string> {
    const exited = this.exited();
    this.child?.kill(signal);
    return exited;
  }
}
