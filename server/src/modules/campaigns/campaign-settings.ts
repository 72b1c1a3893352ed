import type { EntityManager } from '@mikro-orm/postgresql';
import {
  campaignSettingsFromRows,
  type CampaignSettingRow,
  type CampaignSettings,
  type SaveCampaignSettingsInput,
} from '@atrium/shared';
import type { ServiceContext } from '../../context.js';
import { requireTenant } from '../../db/tenant.js';
import { CampaignSetting } from './campaign.entity.js';

/**
 * Campaign settings (spec 04 section 2 with its note): key/value rows per company, values as JSON text
 * (scalars as plain text, as the family stores them). POST validates ranges and unique variable keys
 * before anything is stored, so a bad value never reaches a running campaign; one that is unreadable anyway
 * (written by hand) reads as its default.
 */
const presentRow = (row: CampaignSetting): CampaignSettingRow => ({ id: row.id, key: row.key, value: row.value, companyId: row.companyId });

const rowsOf = (em: EntityManager) => em.find(CampaignSetting, {}, { orderBy: { key: 'asc' }, refresh: true });

/** GET /campaign-settings: the stored rows as they are (values are JSON text). */
export const listCampaignSettings = async (ctx: ServiceContext): Promise<CampaignSettingRow[]> => (await rowsOf(ctx.em)).map(presentRow);

/** The company's settings with defaults for what is missing, as a campaign reads them when it starts. */
export const readCampaignSettings = async (em: EntityManager): Promise<CampaignSettings> => campaignSettingsFromRows(await rowsOf(em));

const textOf = (value: unknown): string => (typeof value === 'string' ? value : typeof value === 'number' ? String(value) : JSON.stringify(value));

/** POST /campaign-settings `{settings: {key: value}}`: each key sent is stored; the others stay. */
export const saveCampaignSettings = async (ctx: ServiceContext, input: SaveCampaignSettingsInput): Promise<CampaignSettingRow[]> => {
  const companyId = requireTenant(ctx.em);
  const entries = Object.entries(input.settings).filter(([, value]) => value !== undefined);
  for (const [key, value] of entries) {
    await ctx.em.execute(
      `insert into campaign_settings (company_id, key, value, created_at, updated_at) values (?, ?, ?, now(), now())
       on conflict (company_id, key) do update set value = excluded.value, updated_at = now()`,
      [companyId, key, textOf(value)],
    );
  }
  const rows = await listCampaignSettings(ctx);
  ctx.events.emit('campaign.settings', { companyId, settings: rows });
  return rows;
};
