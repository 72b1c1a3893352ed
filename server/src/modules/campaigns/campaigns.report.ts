import type { EntityManager } from '@mikro-orm/postgresql';
import {
  CAMPAIGN_SHIPPING_PAGE_SIZE,
  type CampaignReportFilter,
  type CampaignReportView,
  type CampaignShippingQuery,
  type CampaignShippingView,
} from '@atrium/shared';
import { pageOf, type ServiceContext } from '../../context.js';
import { escapeLike } from '../../db/sql.js';
import { csv } from '../contact-lists/index.js';
import { CampaignShipping } from './campaign.entity.js';
import { countsOf, EMPTY_COUNTS, findCampaign } from './campaigns.service.js';

/**
 * The report (spec 04 section 1's note): aggregated counts instead of every row and list item, and the rows
 * page by page, filterable by how far each got, with a CSV export of the same rows.
 */
const FILTERS: Record<CampaignReportFilter, string> = {
  pending: `s.status = 'pending'`,
  sent: `s.status = 'sent'`,
  failed: `s.status = 'failed'`,
  delivered: `s.delivered_at is not null`,
  read: `s.read_at is not null`,
  replied: `s.replied_at is not null`,
};

export const presentShipping = (row: CampaignShipping): CampaignShippingView<Date> => ({
  id: row.id,
  campaignId: row.campaignId,
  contactListItemId: row.contactListItemId,
  contactId: row.contactId,
  name: row.name,
  number: row.number,
  variant: row.variant,
  message: row.message,
  status: row.status,
  error: row.error,
  plannedAt: row.plannedAt,
  sentAt: row.sentAt,
  deliveredAt: row.deliveredAt,
  readAt: row.readAt,
  repliedAt: row.repliedAt,
});

/** GET /campaigns/{id}/report. */
export const campaignReport = async (ctx: ServiceContext, id: number): Promise<CampaignReportView<Date>> => {
  const campaign = await findCampaign(ctx.em, id);
  const counts = (await countsOf(ctx.em, [id])).get(id) ?? { ...EMPTY_COUNTS };
  const [last] = await ctx.em.execute<{ at: Date | null }[]>(
    `select max(planned_at) as at from campaign_shipping where campaign_id = ? and company_id = ? and status = 'pending'`,
    [id, campaign.companyId],
  );
  return {
    campaignId: id,
    status: campaign.status,
    startedAt: campaign.startedAt,
    completedAt: campaign.completedAt,
    estimatedEndAt: counts.pending > 0 && last?.at ? new Date(last.at) : null,
    ...counts,
  };
};

const whereOf = (em: EntityManager, campaignId: number, companyId: number, query: Pick<CampaignShippingQuery, 'status' | 'searchParam'>) => {
  const where = ['s.campaign_id = ?', 's.company_id = ?'];
  const params: unknown[] = [campaignId, companyId];
  if (query.status) where.push(FILTERS[query.status]);
  if (query.searchParam) {
    const term = `%${escapeLike(query.searchParam)}%`;
    const digits = query.searchParam.replace(/\D/g, '');
    where.push(digits ? '(s.name ilike ? or s.number like ?)' : 's.name ilike ?');
    params.push(term);
    if (digits) params.push(`%${digits}%`);
  }
  return { sql: where.join(' and '), params, em };
};

/** GET /campaigns/{id}/shipping: 50 rows a page in the order they were planned. */
export const campaignShipping = async (ctx: ServiceContext, id: number, query: CampaignShippingQuery) => {
  const campaign = await findCampaign(ctx.em, id);
  const { sql, params } = whereOf(ctx.em, id, campaign.companyId, query);
  const [{ count }] = await ctx.em.execute<{ count: number }[]>(`select count(*)::int as count from campaign_shipping s where ${sql}`, params);
  const rows = await ctx.em.execute<Record<string, unknown>[]>(`select s.* from campaign_shipping s where ${sql} order by s.id limit ? offset ?`, [
    ...params,
    CAMPAIGN_SHIPPING_PAGE_SIZE,
    (query.pageNumber - 1) * CAMPAIGN_SHIPPING_PAGE_SIZE,
  ]);
  const page = pageOf(
    rows.map((r) => presentShipping(ctx.em.map(CampaignShipping, r))),
    count,
    query.pageNumber,
    CAMPAIGN_SHIPPING_PAGE_SIZE,
  );
  return { records: page.rows, count: page.count, hasMore: page.hasMore };
};

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : '');

/** GET /campaigns/{id}/shipping/export: the same rows as CSV (separator ;), read in batches. */
export const campaignShippingCsv = async (ctx: ServiceContext, id: number, query: Pick<CampaignShippingQuery, 'status' | 'searchParam'>) => {
  const campaign = await findCampaign(ctx.em, id);
  const { sql, params } = whereOf(ctx.em, id, campaign.companyId, query);
  const lines: (string | number | null)[][] = [
    ['name', 'number', 'variant', 'message', 'status', 'error', 'plannedAt', 'sentAt', 'deliveredAt', 'readAt', 'repliedAt'],
  ];
  for (let after = 0; ; ) {
    const rows = await ctx.em.execute<Record<string, unknown>[]>(`select s.* from campaign_shipping s where ${sql} and s.id > ? order by s.id limit 2000`, [
      ...params,
      after,
    ]);
    if (rows.length === 0) break;
    for (const raw of rows) {
      const r = ctx.em.map(CampaignShipping, raw);
      lines.push([r.name, r.number, r.variant, r.message, r.status, r.error, iso(r.plannedAt), iso(r.sentAt), iso(r.deliveredAt), iso(r.readAt), iso(r.repliedAt)]);
      after = r.id;
    }
  }
  return { name: campaign.name, text: csv(lines) };
};
