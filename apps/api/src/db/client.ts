import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { type Notifications, pgliteNotifications, postgresNotifications } from './notifications.ts';
import * as schema from './schema.ts';

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /**
   * Raw SQL with positional parameters, for the few statements drizzle cannot express. `name` prepares it as a
   * named statement on each connection (PostgreSQL; PGlite runs it as any other): only for a statement whose
   * plan does not depend on its values (docs/decisions/0021).
   */
  query<T = Record<string, unknown>>(
    text: string,
    params?: unknown[],
    options?: { name?: string },
  ): Promise<T[]>;
  notifications: Notifications;
  close(): Promise<void>;
}

const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

export type DatabaseTarget =
  | { kind: 'pglite'; dataDir?: string }
  | { kind: 'postgres'; url: string; max?: number };

/** Any fixed number, the same in every process: the key of the advisory lock taken around migrations. */
const MIGRATION_LOCK_KEY = 7_260_417;

/**
 * Several API processes starting at once (replicas, a rolling upgrade) would each apply the same migration and
 * all but one would fail on "already exists". A session-level advisory lock lets one migrate while the others
 * wait, then find nothing left to do. A process killed while holding it releases it with its connection.
 */
async function migrateExclusively(url: string, migrate: () => Promise<void>): Promise<void> {
  // Its own connection, not one of the pool's: a pool of one (the CLI) would otherwise wait on itself.
  const lockHolder = new pg.Client({ connectionString: url });
  lockHolder.on('error', () => {});
  await lockHolder.connect();
  try {
    await lockHolder.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    await migrate();
  } finally {
    await lockHolder.end().catch(() => {});
  }
}

/** Opens the database and applies every checked-in migration before anything else touches it. */
export async function openDatabase(target: DatabaseTarget): Promise<Database> {
  if (target.kind === 'pglite') {
    const client = target.dataDir ? new PGlite(target.dataDir) : new PGlite();
    await client.waitReady;
    const db = drizzlePglite(client, { schema }) as unknown as Db;
    await migratePglite(db as never, { migrationsFolder });
    const notifications = pgliteNotifications(client);
    return {
      db,
      kind: 'pglite',
      query: async (text, params) => (await client.query(text, params)).rows as never,
      notifications,
      close: async () => {
        await notifications.close();
        await client.close();
      },
    };
  }
  const pool = new pg.Pool({ connectionString: target.url, max: target.max ?? 10 });
  // A client losing its server (restart, failover) must not crash the process. pg reports it on the pool for
  // an idle client, but on the client itself for one checked out (a transaction), where nothing listens: so
  // every client gets a listener. Its queries fail on their own, and the pool drops it when it is released.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  await migrateExclusively(target.url, () => migratePg(db as never, { migrationsFolder }));
  const notifications = postgresNotifications(target.url);
  return {
    db,
    kind: 'postgres',
    query: async (text, params, options) =>
      (options?.name
        ? await pool.query({ name: options.name, text, values: params })
        : await pool.query(text, params)
      ).rows,
    notifications,
    close: async () => {
      await notifications.close();
      await pool.end();
    },
  };
}
