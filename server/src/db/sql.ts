import type { EntityManager } from '@mikro-orm/postgresql';

/** Helpers for parameters of hand-written SQL. */

/** A user's text inside a LIKE/ILIKE pattern: its % and _ match themselves, not any text. */
export const escapeLike = (text: string): string => text.replace(/[%_\\]/g, '\\$&');

/**
 * An integer list as one PostgreSQL array parameter (`?::int[]`). The query layer expands a JS array
 * into separate parameters, so lists go in as an array literal.
 */
export const intArray = (values: readonly number[]): string => {
  if (!values.every((v) => Number.isInteger(v))) throw new Error('intArray takes integers only');
  return `{${values.join(',')}}`;
};

/**
 * A long statement written with `:name` parameters, as the `?` list `em.execute` takes. Casts (`::int`)
 * are left alone; an unknown name throws rather than sending NULL.
 */
export const named = (sql: string, values: Record<string, unknown>): [string, unknown[]] => {
  const params: unknown[] = [];
  const text = sql.replace(/(?<![:\w]):([a-zA-Z]\w*)/g, (_, name: string) => {
    if (!(name in values)) throw new Error(`no value for :${name}`);
    params.push(values[name]);
    return '?';
  });
  return [text, params];
};

/** A snake_case row (from `to_jsonb`) as the entity's camelCase fields, timestamps as Dates. */
export const camelRow = <T>(row: Record<string, unknown>): T => {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) {
    const name = key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
    out[name] = typeof value === 'string' && /(_at|_since|_until)$/.test(key) ? new Date(value) : value;
  }
  return out as T;
};

/**
 * Runs a statement of the hot path as a named prepared statement: PostgreSQL plans it once per connection
 * instead of on every call (the inbound batch statement spent a quarter of its time planning). `?`
 * parameters as `em.execute` takes them; rows come back as `em.execute` answers them.
 */
export const executePrepared = async <T>(em: EntityManager, name: string, sql: string, params: unknown[]): Promise<T[]> => {
  // A connection of its own would leave the caller's transaction: inside one, the ordinary way.
  if (em.isInTransaction()) return em.execute<T[]>(sql, params);
  let n = 0;
  const text = sql.replace(/\?/g, () => `$${++n}`);
  if (n !== params.length) throw new Error(`${name}: ${n} placeholders for ${params.length} values`);
  const client = em.getConnection().getKnex().client as {
    acquireConnection(): Promise<{ query(q: { name: string; text: string; values: unknown[] }): Promise<{ rows: T[] }> }>;
    releaseConnection(connection: unknown): Promise<void>;
  };
  const connection = await client.acquireConnection();
  try {
    return (await connection.query({ name, text, values: params })).rows;
  } finally {
    await client.releaseConnection(connection);
  }
};

/**
 * Runs a statement with its values sent as bound parameters, in the caller's transaction when it has one.
 * `em.execute` writes every value into the statement's text (escaped, character by character): for a
 * statement carrying thousands of rows as one JSON value (a campaign's start) that cost more than the
 * statement itself, and PostgreSQL then parsed it back. `?` parameters as `em.execute` takes them.
 */
export const executeBound = async <T>(em: EntityManager, sql: string, params: unknown[]): Promise<T[]> => {
  const trx = em.getTransactionContext<{ raw(sql: string, params: unknown[]): Promise<{ rows: T[] }> }>();
  const knex = trx ?? (em.getConnection().getKnex() as unknown as { raw(sql: string, params: unknown[]): Promise<{ rows: T[] }> });
  return (await knex.raw(sql, params)).rows;
};
