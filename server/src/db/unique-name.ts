import { UniqueConstraintViolationException, type EntityName, type FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { ErrorCode } from '@atrium/shared';
import { AppError } from '../errors.js';
import { escapeLike } from './sql.js';

/**
 * Names unique in a company whatever their case (tags, file lists, connections, plans): `code` when
 * another row of `entity` (the em is bound to the company) has the name already.
 */
export const assertUniqueName = async <T extends { id: number; name: string }>(
  em: EntityManager,
  entity: EntityName<T>,
  name: string,
  code: ErrorCode,
  exceptId?: number,
): Promise<void> => {
  const other = await em.findOne(entity, { name: { $ilike: escapeLike(name) } } as FilterQuery<T>);
  if (other && other.id !== exceptId) throw new AppError(code);
};

/**
 * A concurrent save with the same name passed the check above: the (company, name) unique index refuses it,
 * and the caller still gets `code`. For `.catch()`.
 */
export const nameTaken =
  (code: ErrorCode) =>
  (err: unknown): never => {
    if (err instanceof UniqueConstraintViolationException) throw new AppError(code);
    throw err;
  };
