import type { z } from 'zod';
import { AppError } from '../errors.js';

/** Whether any string in the input (keys included) holds U+0000, which PostgreSQL's text refuses. */
const holdsNul = (value: unknown, depth = 0): boolean => {
  if (typeof value === 'string') return value.includes('\0');
  if (depth > 32 || value === null || typeof value !== 'object' || Buffer.isBuffer(value)) return false;
  if (Array.isArray(value)) return value.some((v) => holdsNul(v, depth + 1));
  return Object.entries(value).some(([k, v]) => k.includes('\0') || holdsNul(v, depth + 1));
};

/**
 * Parses input with its shared schema; a failure is a 400 listing every failing field. The shared
 * schemas refuse NUL themselves; the check here also covers a route's own small schema.
 */
export const parse = <S extends z.ZodType>(schema: S, data: unknown): z.output<S> => {
  if (holdsNul(data)) throw new AppError('ERR_VALIDATION', { fields: [{ path: '', message: 'contains a NUL character' }] });
  const result = schema.safeParse(data ?? {});
  if (!result.success) {
    throw new AppError('ERR_VALIDATION', {
      fields: result.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })),
    });
  }
  return result.data;
};
