import { createHash } from 'node:crypto';
import { fillPlaceholders } from 'drizzle-orm';

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

/**
 * Prepares a drizzle query as a named statement, named after its text: each connection parses it once and, once
 * the database finds a generic plan no costlier than the plans for the values it was run with, stops planning it.
 * Only for lookups by key, whose best plan does not depend on the values (docs/decisions/0021).
 */
export function prepareNamed<T>(query: {
  prepare(name: string): PreparedStatement<T>;
  toSQL(): { sql: string };
}): PreparedStatement<T> {
  const name = `kept_${createHash('sha256').update(query.toSQL().sql).digest('hex').slice(0, 24)}`;
  return query.prepare(name);
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
