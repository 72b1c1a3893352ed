import type { EntityManager } from '@mikro-orm/postgresql';
import {
  isSecretSetting,
  isSettingKey,
  isValidSettingValue,
  SETTINGS,
  SETTING_KEYS,
  type SettingKey,
} from '@atrium/shared';
import { AppError } from '../../errors.js';
import { requireAdmin, type Actor, type ServiceContext } from '../../context.js';
import { Setting } from './setting.entity.js';

/** Creates the keys a company lacks with their defaults (new companies, and keys added by later versions). */
export const ensureDefaultSettings = async (
  em: EntityManager,
  companyId: number,
  overrides: Partial<Record<SettingKey, string>> = {},
): Promise<void> => {
  const existing = await em.find(Setting, { companyId });
  const have = new Set(existing.map((s) => s.key));
  for (const key of SETTING_KEYS) {
    if (!have.has(key)) em.create(Setting, { companyId, key, value: overrides[key] ?? SETTINGS[key].default });
  }
  await em.flush();
};

/**
 * At start-up: every company gets the keys it lacks, with their defaults (keys added by a later version,
 * or rows lost), so GET /settings always lists every key. `em` is a system manager.
 */
export const backfillDefaultSettings = async (em: EntityManager): Promise<void> => {
  const connection = em.getConnection();
  for (const key of SETTING_KEYS) {
    await connection.execute(
      `insert into settings (company_id, key, value) select id, ?, ? from companies on conflict (company_id, key) do nothing`,
      [key, SETTINGS[key].default],
    );
  }
};

/** Settings as the client sees them: secrets only for admins. */
export const visibleSettings = (settings: Setting[], actor: Pick<Actor, 'profile' | 'isSuper'>) =>
  settings
    .filter((s) => isSettingKey(s.key))
    .filter((s) => actor.profile === 'admin' || actor.isSuper || !isSecretSetting(s.key))
    .map((s) => ({ id: s.id, key: s.key, value: s.value, companyId: s.companyId }));

export const listSettings = async (ctx: ServiceContext) => {
  const settings = await ctx.em.find(Setting, {}, { orderBy: { key: 'asc' } });
  return visibleSettings(settings, ctx.actor);
};

/** The value of one setting for the em's company, or its default. */
export const getSettingValue = async (em: EntityManager, key: SettingKey): Promise<string> => {
  const setting = await em.findOne(Setting, { key });
  return setting?.value ?? SETTINGS[key].default;
};

export const updateSetting = async (ctx: ServiceContext, key: string, value: string) => {
  requireAdmin(ctx.actor);
  if (!isSettingKey(key)) throw new AppError('ERR_NO_SETTING_FOUND');
  if (!isValidSettingValue(key, value)) throw new AppError('ERR_INVALID_SETTING_VALUE', { key });
  let setting = await ctx.em.findOne(Setting, { key });
  if (!setting) setting = ctx.em.create(Setting, { companyId: ctx.actor.companyId, key, value });
  setting.value = value;
  await ctx.em.flush();
  ctx.events.emit('settings.updated', {
    companyId: ctx.actor.companyId,
    key,
    // Secrets are not broadcast: non-admin sockets share the company room.
    value: isSecretSetting(key) ? '' : value,
  });
  return { id: setting.id, key: setting.key, value: setting.value, companyId: setting.companyId };
};
