import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database, Db } from '../src/db/client.ts';
import { keptSql, keptStatement } from '../src/db/kept-statements.ts';
import { companies } from '../src/db/schema.ts';
import { createTestDatabase } from './helpers.ts';

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
  await database.db.insert(companies).values([
    { name: '첫째 회사', joinCode: 'KEPT-1' },
    { name: '둘째 회사', joinCode: 'KEPT-2' },
  ]);
});
afterAll(() => database.close());

describe('a statement kept per executor (decision 0021)', () => {
  it('is built once, and every run takes its own values', async () => {
    let builds = 0;
    const byJoinCode = keptStatement((db: Db) => {
      builds += 1;
      return db
        .select({ name: companies.name })
        .from(companies)
        .where(eq(companies.joinCode, sql.placeholder('code')));
    });
    const [first] = await byJoinCode(database.db, { code: 'KEPT-1' });
    const [second] = await byJoinCode(database.db, { code: 'KEPT-2' });
    const none = await byJoinCode(database.db, { code: 'NONE' });
    expect([first?.name, second?.name, none]).toEqual(['첫째 회사', '둘째 회사', []]);
    expect(builds).toBe(1);
    // What EXPLAIN is given is the statement with this call's values.
    expect(byJoinCode(database.db, { code: 'KEPT-2' }).toSQL().params).toEqual(['KEPT-2']);
    // A transaction is another executor: its statement is its own, run on its connection.
    await database.db.transaction(async (tx) => {
      await tx.update(companies).set({ name: '바뀐 회사' }).where(eq(companies.joinCode, 'KEPT-1'));
      const [inside] = await byJoinCode(tx as unknown as Db, { code: 'KEPT-1' });
      expect(inside?.name).toBe('바뀐 회사');
    });
    expect(builds).toBe(2);
  });
});

describe('a hand-written statement kept per dialect (decision 0024)', () => {
  it('is built once for every transaction, and every run takes its own values', async () => {
    let builds = 0;
    const renamed = keptSql<{ name: string }>(() => {
      builds += 1;
      return sql`UPDATE ${companies} SET name = ${sql.placeholder('name')} WHERE join_code = ${sql.placeholder('code')} RETURNING name`;
    });
    for (const [code, name] of [
      ['KEPT-1', '다시 바뀐 회사'],
      ['KEPT-2', '바뀐 둘째'],
    ]) {
      await database.db.transaction(async (tx) => {
        const { rows } = await renamed(tx, { code, name });
        expect(rows).toEqual([{ name }]);
      });
    }
    expect((await renamed(database.db, { code: 'NONE', name: 'x' })).rows).toEqual([]);
    expect(builds).toBe(1);
    expect(renamed(database.db, { code: 'KEPT-2', name: 'y' }).toSQL().params).toEqual(['y', 'KEPT-2']);
  });
});
