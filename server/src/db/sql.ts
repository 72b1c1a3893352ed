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
