import type { Dictionary, EventArgs, EventSubscriber } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { AppError } from '../errors.js';

/**
 * Tenant isolation, in one place. Every company-owned entity carries the `tenant` filter, on by default
 * for reads, updates and deletes. An entity manager gets its company through `forCompany()`; one without
 * filter parameters fails loudly instead of reading every company's rows. `forSystem()` is the explicit
 * cross-company scope, used by boot, login, jobs and the super user's endpoints.
 */
export type TenantParams = { companyId: number } | { crossTenant: true };

const TENANT = 'tenant';

const condOn =
  (field: 'companyId' | 'id') =>
  (args: Dictionary): Dictionary => {
    const params = args as TenantParams;
    if ('crossTenant' in params && params.crossTenant) return {};
    if (!('companyId' in params) || !Number.isInteger(params.companyId)) {
      throw new Error('tenant filter used without a company');
    }
    return { [field]: params.companyId };
  };

/** For entities with a `companyId` column. */
export const tenantFilter = { tenant: { name: TENANT, cond: condOn('companyId'), default: true } };
/** For the Company entity itself, whose own id is the tenant. */
export const companyTenantFilter = { tenant: { name: TENANT, cond: condOn('id'), default: true } };

export const forCompany = (em: EntityManager, companyId: number): EntityManager => {
  const fork = em.fork({ clear: true, keepTransactionContext: true });
  fork.setFilterParams(TENANT, { companyId } satisfies TenantParams);
  return fork;
};

export const forSystem = (em: EntityManager): EntityManager => {
  const fork = em.fork({ clear: true, keepTransactionContext: true });
  fork.setFilterParams(TENANT, { crossTenant: true } satisfies TenantParams);
  return fork;
};

export const tenantOf = (em: EntityManager): number | null => {
  const params = em.getFilterParams(TENANT) as Partial<{ companyId: number; crossTenant: boolean }> | undefined;
  return params?.crossTenant ? null : (params?.companyId ?? null);
};

/**
 * The write side of the same rule: a company-scoped entity manager fills in its company on new rows
 * and refuses to write another company's row, whatever a service forgot.
 */
export class TenantGuard implements EventSubscriber {
  private check(args: EventArgs<unknown>, fill: boolean): void {
    const entity = args.entity as { companyId?: number | null };
    const companyId = tenantOf(args.em as unknown as EntityManager);
    if (companyId === null) return;
    const meta = args.meta ?? (args.em as unknown as EntityManager).getMetadata().find((args.entity as object).constructor.name);
    if (meta?.className === 'Company') {
      // A company-scoped manager may change its own company row, never create or touch another.
      if ((args.entity as { id?: number }).id !== companyId) throw new AppError('ERR_NO_PERMISSION');
      return;
    }
    if (!meta || !('companyId' in meta.properties)) return;
    if (fill && (entity.companyId === undefined || entity.companyId === null)) entity.companyId = companyId;
    if (entity.companyId !== companyId) throw new AppError('ERR_NO_PERMISSION');
  }

  beforeCreate(args: EventArgs<unknown>): void {
    this.check(args, true);
  }

  beforeUpdate(args: EventArgs<unknown>): void {
    this.check(args, false);
  }

  beforeDelete(args: EventArgs<unknown>): void {
    this.check(args, false);
  }
}

/** The company a raw SQL query must be limited to: the one the entity manager is bound to. */
export const requireTenant = (em: EntityManager): number => {
  const companyId = tenantOf(em);
  if (companyId === null) throw new Error('a company-scoped entity manager is required');
  return companyId;
};

