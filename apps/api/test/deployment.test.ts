import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadConfig } from '../src/config.ts';
import { type Database, openDatabase } from '../src/db/client.ts';
import { createCompany, reportBody, upload } from './fixtures.ts';
import { createTestApp, registerAndLogin, type TestContext } from './helpers.ts';

/**
 * The deployment files (no Docker daemon runs here, so they are checked as files: every variable the compose
 * file gives the app must pass the app's own configuration check), concurrent start-up of replicas on one
 * PostgreSQL, and a real backup → restore → compare round trip. Runs once (the api-pglite project): the
 * PostgreSQL parts use the local server directly and are skipped with a message when it is not there.
 */
const root = path.resolve(import.meta.dirname, '../../..');
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');

// biome-ignore lint/suspicious/noExplicitAny: a parsed YAML document, checked field by field below.
type Yaml = any;

/** Replaces `${NAME:?message}` with `values[NAME]` and `${NAME:-default}` with the default, as compose does. */
function interpolate(text: string, values: Record<string, string>): string {
  return text.replace(/\$\{(\w+)(?::([?-])([^}]*))?\}/g, (_, name: string, kind?: string, rest?: string) => {
    if (name in values) return values[name]!;
    if (kind === '-') return rest ?? '';
    throw new Error(`compose needs ${name}`);
  });
}

describe('docker-compose.yml', () => {
  const secrets = {
    POSTGRES_PASSWORD: randomBytes(16).toString('hex'),
    SECRET_KEY: randomBytes(32).toString('hex'),
    ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    MINIO_ROOT_PASSWORD: randomBytes(16).toString('hex'),
  };
  const compose: Yaml = parse(interpolate(read('docker-compose.yml'), secrets));
  const app = compose.services.app;

  it('runs two app replicas behind the proxy, with PostgreSQL, MinIO and Mailpit', () => {
    expect(Object.keys(compose.services).sort()).toEqual(['app', 'mailpit', 'minio', 'postgres', 'proxy']);
    expect(app.deploy.replicas).toBe(2);
    // Only the proxy is reachable from outside, which is what makes TRUST_PROXY safe.
    expect(app.ports).toBeUndefined();
    expect(compose.services.proxy.ports).toEqual(['8080:80', '8443:443']);
    for (const service of ['postgres', 'minio'])
      expect(app.depends_on[service]).toEqual({ condition: 'service_healthy' });
  });

  it('gives the app a configuration its own check accepts, wired to the other services', () => {
    const environment: Record<string, string> = app.environment;
    const config = loadConfig(environment);

    // Every variable the compose file sets is one the app reads (an unknown one would be silently ignored).
    for (const name of Object.keys(environment)) expect(config, name).toHaveProperty(name);
    expect(config).toMatchObject({
      NODE_ENV: 'production',
      TRUST_PROXY: 1,
      FILE_STORE: 's3',
      S3_FORCE_PATH_STYLE: true,
      PUBLIC_URL: 'http://localhost:8080',
    });
    expect(new URL(config.DATABASE_URL!).host).toBe('postgres:5432');
    expect(new URL(config.DATABASE_URL!).password).toBe(secrets.POSTGRES_PASSWORD);
    expect(compose.services.postgres.environment.POSTGRES_PASSWORD).toBe(secrets.POSTGRES_PASSWORD);
    expect(new URL(config.S3_ENDPOINT!).host).toBe('minio:9000');
    expect(config.S3_ACCESS_KEY_ID).toBe(compose.services.minio.environment.MINIO_ROOT_USER);
    expect(config.S3_SECRET_ACCESS_KEY).toBe(compose.services.minio.environment.MINIO_ROOT_PASSWORD);
    expect(new URL(config.SMTP_URL!).host).toBe('mailpit:1025');
  });

  it('names every required secret in deploy/env.example and refuses to start without one', () => {
    const example = read('deploy/env.example');
    for (const name of Object.keys(secrets)) expect(example).toMatch(new RegExp(`^${name}=`, 'm'));
    const { SECRET_KEY: _, ...withoutSecretKey } = secrets;
    expect(() => interpolate(read('docker-compose.yml'), withoutSecretKey)).toThrow(
      'compose needs SECRET_KEY',
    );
  });

  it('proxies to every replica without buffering the event stream', () => {
    expect(compose.services.proxy.volumes).toContain('./deploy/Caddyfile:/etc/caddy/Caddyfile:ro');
    const caddyfile = read('deploy/Caddyfile');
    expect(caddyfile).toMatch(/^\s*dynamic a app 3000 \{/m);
    expect(caddyfile).toMatch(/^\s*flush_interval -1$/m);
    expect(caddyfile).not.toMatch(/^\s*(encode|buffer_responses|lb_policy (ip_hash|cookie))/m);
  });
});

describe('docs/operations.md', () => {
  it('documents every variable config.ts reads', () => {
    const source = read('apps/api/src/config.ts');
    const schema = source.slice(source.indexOf('const configSchema'), source.indexOf('.superRefine'));
    const variables = [...schema.matchAll(/^ {4}([A-Z][A-Z0-9_]+):/gm)].map((match) => match[1]!);
    expect(variables).toContain('S3_FORCE_PATH_STYLE');
    const table = read('docs/operations.md').split('## Configuration')[1]!.split('\n## ')[0]!;
    const undocumented = variables.filter((name) => !table.includes(`\`${name}\``));
    expect(undocumented).toEqual([]);
  });
});

describe('Dockerfile', () => {
  const dockerfile = read('Dockerfile');
  const stages = dockerfile.split(/^FROM /m).slice(1);
  const runtime = stages.at(-1)!;

  it('builds in stages and runs the last one as a non-root user in production mode', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    expect(stages[0]).toMatch(/RUN npm run build/);
    expect(runtime).toMatch(/^USER node$/m);
    expect(runtime).toMatch(/NODE_ENV=production/);
    expect(runtime).toMatch(/^HEALTHCHECK .*\n?.*\/api\/health/m);
    expect(runtime).toMatch(/^CMD \["node", "--import", "tsx", "apps\/api\/src\/server\.ts"\]$/m);
    // Only production dependencies in the image.
    expect(dockerfile).toMatch(/npm install --omit=dev --workspace @ansim\/api --workspace @ansim\/shared/);
  });

  it('copies only paths that exist, and runs tsx as a production dependency', () => {
    const copied = [...runtime.matchAll(/^COPY (?!--from)(\S+) /gm)].map((match) => match[1]!);
    expect(copied.length).toBeGreaterThan(3);
    for (const source of copied) expect(fs.existsSync(path.join(root, source)), source).toBe(true);
    const apiPackage = JSON.parse(read('apps/api/package.json'));
    expect(apiPackage.dependencies.tsx).toBeDefined();
  });

  it('keeps secrets, data and dependencies out of the build context', () => {
    const ignored = read('.dockerignore').split('\n');
    for (const pattern of ['.git', '**/node_modules', 'data', '.env', '**/*.test.ts'])
      expect(ignored).toContain(pattern);
  });
});

const serverUrl = process.env.TEST_DATABASE_URL
  ? new URL(process.env.TEST_DATABASE_URL)
  : new URL('postgres://postgres@127.0.0.1:5432/postgres');
serverUrl.pathname = '/postgres';

async function postgresAnswers(): Promise<boolean> {
  const client = new pg.Client({ connectionString: serverUrl.toString(), connectionTimeoutMillis: 2000 });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

const hasPgTools = ['pg_dump', 'pg_restore'].every(
  (tool) => spawnSync(tool, ['--version'], { encoding: 'utf8' }).status === 0,
);
const hasPostgres = await postgresAnswers();
if (!hasPostgres) console.info(`deployment tests: no PostgreSQL at ${serverUrl.host}; skipping its parts`);
if (!hasPgTools)
  console.info('deployment tests: pg_dump/pg_restore not installed; skipping backup and restore');

/** A database of our own on the server, dropped again by the returned function. */
async function createScratchDatabase(prefix: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl.toString() });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const cleanup = new pg.Client({ connectionString: serverUrl.toString() });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}

describe.runIf(hasPostgres)('replicas starting together on one PostgreSQL', () => {
  it('lets one apply the migrations while the others wait, and all three start', async () => {
    const scratch = await createScratchDatabase('ansim_replicas');
    try {
      const opened = await Promise.allSettled(
        [1, 2, 3].map(() => openDatabase({ kind: 'postgres', url: scratch.url, max: 2 })),
      );
      const failures = opened.filter((result) => result.status === 'rejected');
      expect(failures.map((failure) => String((failure as PromiseRejectedResult).reason))).toEqual([]);
      const databases = opened.map((result) => (result as PromiseFulfilledResult<Database>).value);
      const journal = JSON.parse(read('apps/api/src/db/migrations/meta/_journal.json'));
      const [applied] = await databases[0]!.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations',
      );
      expect(applied!.n).toBe(journal.entries.length);
      await Promise.all(databases.map((database) => database.close()));
    } finally {
      await scratch.drop();
    }
  });
});

describe.runIf(hasPostgres && hasPgTools)('backup and tested restore', () => {
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
  let database: Database;
  let ctx: TestContext;
  let backupRoot: string;

  beforeAll(async () => {
    scratch = await createScratchDatabase('ansim_backup');
    database = await openDatabase({ kind: 'postgres', url: scratch.url, max: 4 });
    ctx = await createTestApp({ database });
    backupRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'ansim-backups-'));
  });
  afterAll(async () => {
    await ctx?.close();
    await database?.close();
    await scratch?.drop();
    fs.rmSync(backupRoot, { recursive: true, force: true });
    if (ctx) fs.rmSync(ctx.config.dataDir, { recursive: true, force: true });
  });

  const restoreCheck = (backup: string) =>
    spawnSync(
      'node',
      [
        path.join(root, 'scripts/restore-check.mjs'),
        '--backup',
        backup,
        '--source-database-url',
        scratch.url,
        '--source-files',
        path.join(ctx.config.dataDir, 'files'),
      ],
      { cwd: root, encoding: 'utf8' },
    );

  it('restores a backup of data made through the app to the same rows and file hashes', async () => {
    await createCompany(ctx, '백업 주식회사', 'backup.example');
    const reporter = await registerAndLogin(ctx, 'lee@backup.example');
    for (const [name, content] of [
      ['녹취록.txt', '녹취 내용 — 백업 확인용'],
      ['메모.txt', '두 번째 증거 파일'],
    ] as const) {
      expect((await upload(reporter, name, Buffer.from(content))).statusCode).toBe(201);
    }
    expect((await reporter.post('/api/v1/report/', reportBody('brief'))).statusCode).toBe(201);

    const backup = spawnSync('bash', [path.join(root, 'scripts/backup.sh'), backupRoot], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, DATABASE_URL: scratch.url, DATA_DIR: ctx.config.dataDir, FILE_STORE: 'disk' },
    });
    expect(backup.status, backup.stderr).toBe(0);
    const backupDir = backup.stdout.trim();
    expect(fs.readdirSync(backupDir).sort()).toEqual(['SHA256SUMS', 'database.dump', 'files.tar']);
    expect(fs.statSync(backupDir).mode & 0o077).toBe(0);

    const check = restoreCheck(backupDir);
    expect(check.status, `${check.stdout}\n${check.stderr}`).toBe(0);
    expect(check.stdout).toContain('files:   2 restored (source 2)');
    expect(check.stdout).toContain('references: 2 file rows checked');
    expect(check.stdout).toContain('restore-check: OK');

    // A source that moved on since the backup is reported, table and file, and fails the check.
    expect((await upload(reporter, '추가.txt', Buffer.from('백업 이후의 파일'))).statusCode).toBe(201);
    const stale = restoreCheck(backupDir);
    expect(stale.status).toBe(1);
    expect(stale.stderr).toContain('table public.files: source 3, restored 2');
    expect(stale.stderr).toMatch(/file \S+: missing from the restore/);

    // The check drops what it restored.
    const admin = new pg.Client({ connectionString: serverUrl.toString() });
    await admin.connect();
    const { rows } = await admin.query(
      "SELECT datname FROM pg_database WHERE datname LIKE 'ansim_restore_check_%'",
    );
    await admin.end();
    expect(rows).toEqual([]);
  });
});
