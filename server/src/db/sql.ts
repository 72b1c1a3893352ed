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
