import type { z } from 'zod';
import { AppError } from '../errors.js';

/** Parses input with its shared schema; a failure is a 400 listing every failing field. */
export const parse = <S extends z.ZodType>(schema: S, data: unknown): z.output<S> => {
  const result = schema.safeParse(data ?? {});
  if (!result.success) {
    throw new AppError('ERR_VALIDATION', {
      fields: result.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })),
    });
  }
  return result.data;
};
