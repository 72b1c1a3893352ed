import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import { createCompanyRecord } from '../modules/companies/index.js';
import { Plan } from '../modules/plans/plan.entity.js';
import { User } from '../modules/users/user.entity.js';

export const DEFAULT_ADMIN_EMAIL = 'admin@atrium.local';

/**
 * First start: a plan, the platform's own company and its super admin. The generated password is
 * printed once to the console (not to the structured log) and never stored in clear.
 */
export const seedFirstStart = async (
  em: EntityManager,
  config: Config,
  logger: Logger,
  print: (line: string) => void = (line) => process.stdout.write(`${line}\n`),
): Promise<void> => {
  if ((await em.count(User, {})) > 0) return;
  const email = (config.adminEmail ?? DEFAULT_ADMIN_EMAIL).toLowerCase();
  const password = config.adminPassword ?? randomBytes(12).toString('base64url');
  let plan = await em.findOne(Plan, { name: 'Plano 1' });
  if (!plan) {
    plan = em.create(Plan, { name: 'Plano 1', users: 10, connections: 10, queues: 10, value: 0 });
    await em.flush();
  }
  const company = await createCompanyRecord(em, {
    name: 'Empresa 1',
    email,
    planId: plan.id,
    status: true,
    dueDate: '2099-12-31',
    recurrence: 'MENSAL',
    timezone: config.defaultTimezone,
    admin: { name: 'Admin', email, password },
  });
  await em.nativeUpdate(User, { email }, { super: true });
  logger.info({ companyId: company.id }, 'first start: created the platform company and its super admin');
  print('');
  print('  Atrium is ready. Log in as the super admin:');
  print(`    email:    ${email}`);
  print(`    password: ${config.adminPassword ? '(ADMIN_PASSWORD)' : password}`);
  if (!config.adminPassword) print('  This password is shown only once; change it after logging in.');
  print('');
};
