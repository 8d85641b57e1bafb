import { createHash } from 'node:crypto';
import { fillPlaceholders, type SQL } from 'drizzle-orm';

/** What drizzle's `prepare` gives: a statement built once, run with the values of its placeholders. */
export interface PreparedStatement<T> {
  execute(values?: Record<string, unknown>): Promise<T>;
  getQuery(): { sql: string; params: unknown[] };
}

/** A prepared statement with its values: awaited, it runs; `toSQL()` is what it sends, for EXPLAIN. */
export interface BoundStatement<T> extends PromiseLike<T> {
  toSQL(): { sql: string; params: unknown[] };
}

/**
 * Prepares a drizzle query as an unnamed statement: drizzle builds its SQL text once, and the database still
 * parses and plans every run with its values, as it does for any other query (docs/decisions/0021).
 */
export function prepareUnnamed<T>(query: {
  prepare(name: string): PreparedStatement<T>;
}): PreparedStatement<T> {
  // pg sends a statement without a name as the unnamed statement, planned for the values it is run with.
  return query.prepare('');
}

export function bindStatement<T>(
  prepared: PreparedStatement<T>,
  values: Record<string, unknown>,
): BoundStatement<T> {
  return {
    // biome-ignore lint/suspicious/noThenProperty: a statement that runs when awaited, as drizzle's own queries do
    then: (onFulfilled, onRejected) => prepared.execute(values).then(onFulfilled, onRejected),
    toSQL: () => {
      const { sql, params } = prepared.getQuery();
      return { sql, params: fillPlaceholders(params, values) };
    },
  };
}

/** A named statement's name: a hash of its text, so two processes (or the bench) give one text one name. */
export function keptStatementName(text: string): string {
  return `kept_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
}

/**
 * Prepares a drizzle query as a named statement, named after its text: each connection parses it once and, once
 * the database finds a generic plan no costlier than the plans for the values it was run with, stops planning it.
 * Only for lookups by key, whose best plan does not depend on the values (docs/decisions/0021).
 */
export function prepareNamed<T>(query: {
  prepare(name: string): PreparedStatement<T>;
  toSQL(): { sql: string };
}): PreparedStatement<T> {
  return query.prepare(keptStatementName(query.toSQL().sql));
}

/**
 * A lookup by key of a fixed shape, built once per database (or transaction) it runs on, then bound to each
 * call's values: for the statements of every request (the session, the read's audit), whose building in drizzle
 * costs more CPU than the database spends running them, and whose parsing and planning cost more than their run.
 */
export function keptStatement<E extends object, V extends Record<string, unknown>, T>(
  build: (executor: E) => { prepare(name: string): PreparedStatement<T>; toSQL(): { sql: string } },
): (executor: E, values: V) => BoundStatement<T> {
  const kept = new WeakMap<E, PreparedStatement<T>>();
  return (executor, values) => {
    let prepared = kept.get(executor);
    if (!prepared) {
      prepared = prepareNamed(build(executor));
      kept.set(executor, prepared);
    }
    return bindStatement(prepared, values);
  };
}

/** The parts of a drizzle database or transaction that turn SQL into text and run it. */
interface SqlExecutor {
  dialect: { sqlToQuery(sql: SQL): { sql: string; params: unknown[] } };
  session: {
    prepareQuery(
      query: { sql: string; params: unknown[] },
      fields: undefined,
      name: string | undefined,
      isResponseInArrayMode: boolean,
    ): PreparedStatement<unknown>;
  };
}

/**
 * A hand-written statement (drizzle's `sql`, its values as `sql.placeholder`) turned into text once per
 * dialect, then prepared, named after its text, on whichever executor runs it: for the statements of a write,
 * which runs in a new transaction every time, so a statement kept per executor (`keptStatement`) would be built
 * again on every call. Preparing the text on an executor builds nothing. Only for statements whose plan does not
 * depend on their values (docs/decisions/0021, 0024). Awaited, it gives the driver's result (`rows`).
 */
export function keptSql<Row>(
  build: () => SQL,
): (executor: object, values: Record<string, unknown>) => BoundStatement<{ rows: Row[] }> {
  const kept = new WeakMap<object, { query: { sql: string; params: unknown[] }; name: string }>();
  return (executor, values) => {
    const { dialect, session } = executor as unknown as SqlExecutor;
    let built = kept.get(dialect);
    if (!built) {
      const query = dialect.sqlToQuery(build());
      built = { query, name: keptStatementName(query.sql) };
      kept.set(dialect, built);
    }
    const prepared = session.prepareQuery(built.query, undefined, built.name, false);
    return bindStatement(prepared as PreparedStatement<{ rows: Row[] }>, values);
  };
}
