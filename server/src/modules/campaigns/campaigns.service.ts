import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  CAMPAIGN_MESSAGE_FIELDS,
  CAMPAIGNS_PAGE_SIZE,
  isCampaignEditable,
  type CampaignCounts,
  type CampaignView,
  type CreateCampaignInput,
  type FieldIssue,
  type ListQuery,
  type UpdateCampaignInput,
} from '@atrium/shared';
import { pageOf, type ServiceContext } from '../../context.js';
import { escapeLike, intArray, named } from '../../db/sql.js';
import { requireTenant } from '../../db/tenant.js';
import { AppError } from '../../errors.js';
import type { Scheduler } from '../../jobs/scheduler.js';
import type { Logger } from '../../logger.js';
import type { MediaStore } from '../../media/storage.js';
import { Whatsapp } from '../connections/whatsapp.entity.js';
import { ContactList } from '../contact-lists/contact-list.entity.js';
import { FileList } from '../files/file-list.entity.js';
import { Tag } from '../tags/tag.entity.js';
import { Campaign } from './campaign.entity.js';

/**
 * Campaigns (spec 02 sections 2-7, spec 04 section 1 with its notes): admins of a company whose plan has
 * campaigns. Whether a campaign may change is decided from its stored status, never from what the client
 * says (spec 02 section 4: INATIVA; PROGRAMADA more than an hour ahead; CANCELADA). A scheduled campaign
 * has a start job at its time and the sweep as a net (campaigns.engine.ts starts it, once).
 */
export interface CampaignDeps {
  media: MediaStore;
  scheduler: Pick<Scheduler, 'schedule' | 'agenda'>;
  logger: Logger;
}

export const START_JOB = 'campaigns:start';
export type StartJobData = { companyId: number; campaignId: number };

export const EMPTY_COUNTS: CampaignCounts = { total: 0, pending: 0, sent: 0, failed: 0, delivered: 0, read: 0, replied: 0 };

/** The report's counts of each campaign: one grouped read of its rows. */
export const countsOf = async (em: EntityManager, ids: number[]): Promise<Map<number, CampaignCounts>> => {
  if (ids.length === 0) return new Map();
  const rows = await em.execute<(CampaignCounts & { campaign_id: number })[]>(
    `select campaign_id, count(*)::int as total,
            count(*) filter (where status = 'pending')::int as pending,
            count(*) filter (where status = 'sent')::int as sent,
            count(*) filter (where status = 'failed')::int as failed,
            count(*) filter (where delivered_at is not null)::int as delivered,
            count(*) filter (where read_at is not null)::int as read,
            count(*) filter (where replied_at is not null)::int as replied
       from campaign_shipping where company_id = ? and campaign_id = any(?::int[]) group by campaign_id`,
    [requireTenant(em), intArray(ids)],
  );
  return new Map(rows.map(({ campaign_id, ...counts }) => [campaign_id, counts]));
};

export const presentCampaigns = async (em: EntityManager, media: MediaStore, campaigns: Campaign[]): Promise<CampaignView<Date>[]> => {
  const ids = (pick: (c: Campaign) => number | null) => [...new Set(campaigns.map(pick).filter((id): id is number => id !== null))];
  const [connections, lists, tags, counts] = await Promise.all([
    em.find(Whatsapp, { id: { $in: ids((c) => c.whatsappId) } }, { fields: ['id', 'name', 'status'] }),
    em.find(ContactList, { id: { $in: ids((c) => c.contactListId) } }, { fields: ['id', 'name'] }),
    em.find(Tag, { id: { $in: ids((c) => c.tagId) } }, { fields: ['id', 'name'] }),
    countsOf(em, campaigns.map((c) => c.id)),
  ]);
  const byId = <T extends { id: number }>(rows: T[]) => new Map(rows.map((r) => [r.id, r]));
  const [wa, cl, tg] = [byId(connections), byId(lists), byId(tags)];
  return campaigns.map((c) => {
    const connection = c.whatsappId ? wa.get(c.whatsappId) : undefined;
    const list = c.contactListId ? cl.get(c.contactListId) : undefined;
    const tag = c.tagId ? tg.get(c.tagId) : undefined;
    return {
      id: c.id,
      name: c.name,
      message1: c.message1,
      message2: c.message2,
      message3: c.message3,
      message4: c.message4,
      message5: c.message5,
      status: c.status,
      scheduledAt: c.scheduledAt,
      startedAt: c.startedAt,
      completedAt: c.completedAt,
      whatsappId: c.whatsappId,
      contactListId: c.contactListId,
      tagId: c.tagId,
      tagListId: c.tagId,
      fileListId: c.fileListId,
      companyId: c.companyId,
      mediaPath: c.mediaPath,
      mediaName: c.mediaName,
      mediaUrl: media.url(c.companyId, c.mediaPath),
      confirmation: false,
      editable: isCampaignEditable(c),
      whatsapp: connection ? { id: connection.id, name: connection.name, status: connection.status } : null,
      contactList: list ? { id: list.id, name: list.name } : null,
      tag: tag ? { id: tag.id, name: tag.name } : null,
      counts: counts.get(c.id) ?? { ...EMPTY_COUNTS },
      createdAt: c.createdAt,
      updatedAt: c.updatedAt,
    };
  });
};

export const presentCampaign = async (em: EntityManager, media: MediaStore, campaign: Campaign) => (await presentCampaigns(em, media, [campaign]))[0];

export const findCampaign = async (em: EntityManager, id: number, lock = false) => {
  const campaign = await em.findOne(Campaign, id, lock ? { lockMode: LockMode.PESSIMISTIC_WRITE, refresh: true } : { refresh: true });
  if (!campaign) throw new AppError('ERR_NO_CAMPAIGN_FOUND');
  return campaign;
};

/** Announces the campaign as it is stored now (a fresh read: the caller's transaction has committed). */
export const announceCampaign = async (ctx: Pick<ServiceContext, 'em' | 'events'>, media: MediaStore, id: number, action: 'create' | 'update' = 'update') => {
  const em = ctx.em.fork();
  const campaign = await em.findOne(Campaign, id);
  if (!campaign) return null;
  const record = await presentCampaign(em, media, campaign);
  ctx.events.emit('campaign.changed', { companyId: campaign.companyId, action, record });
  return record;
};

/** GET /campaigns/: 20 per page, newest first, searching the name. */
export const listCampaigns = async (ctx: ServiceContext, deps: Pick<CampaignDeps, 'media'>, query: ListQuery) => {
  const where = query.searchParam ? { name: { $ilike: `%${escapeLike(query.searchParam)}%` } } : {};
  const [campaigns, count] = await ctx.em.findAndCount(Campaign, where, {
    orderBy: { id: 'desc' },
    limit: CAMPAIGNS_PAGE_SIZE,
    offset: (query.pageNumber - 1) * CAMPAIGNS_PAGE_SIZE,
  });
  const page = pageOf(await presentCampaigns(ctx.em, deps.media, campaigns), count, query.pageNumber, CAMPAIGNS_PAGE_SIZE);
  return { records: page.rows, count: page.count, hasMore: page.hasMore };
};

export const getCampaign = async (ctx: ServiceContext, deps: Pick<CampaignDeps, 'media'>, id: number) =>
  presentCampaign(ctx.em, deps.media, await findCampaign(ctx.em, id));

type Refs = Pick<Campaign, 'whatsappId' | 'contactListId' | 'tagId' | 'fileListId'>;

/** Every reference is one of the company's own (the tenant filter hides another company's: 404). */
const assertRefs = async (em: EntityManager, refs: Partial<Refs>) => {
  if (refs.whatsappId && !(await em.findOne(Whatsapp, refs.whatsappId, { fields: ['id'] }))) throw new AppError('ERR_NO_WAPP_FOUND');
  if (refs.contactListId && !(await em.findOne(ContactList, { id: refs.contactListId, campaignId: null }, { fields: ['id'] }))) {
    throw new AppError('ERR_NO_CONTACT_LIST_FOUND');
  }
  if (refs.tagId && !(await em.findOne(Tag, refs.tagId, { fields: ['id'] }))) throw new AppError('ERR_NO_TAG_FOUND');
  if (refs.fileListId && !(await em.findOne(FileList, refs.fileListId, { fields: ['id'] }))) throw new AppError('ERR_NO_FILE_LIST_FOUND');
};

/** What a scheduled campaign needs to be able to run: a connection, someone to send to, something to send. */
export const missingForStart = (c: Campaign): FieldIssue[] => {
  const issues: FieldIssue[] = [];
  if (!c.whatsappId) issues.push({ path: 'whatsappId', message: 'required to schedule' });
  if (!c.contactListId && !c.tagId) issues.push({ path: 'contactListId', message: 'a contact list or a tag is required to schedule' });
  if (!CAMPAIGN_MESSAGE_FIELDS.some((f) => c[f].trim() !== '') && !c.mediaPath && !c.fileListId) {
    issues.push({ path: 'message1', message: 'a message, a file or a file list is required to schedule' });
  }
  return issues;
};

/**
 * The list made from the tag (spec 04 section 1 with its note): the contacts of the company's tickets that
 * carry the tag (numbers only, no groups, each once), with the chosen list's items merged in. They talked to
 * the company on WhatsApp, so their numbers count as checked. The campaign's previous snapshot goes: no
 * orphan lists.
 */
const snapshotTagList = async (em: EntityManager, campaign: Campaign) => {
  const companyId = campaign.companyId;
  const previous = campaign.snapshotListId;
  campaign.snapshotListId = null;
  if (campaign.tagId) {
    const tag = await em.findOneOrFail(Tag, campaign.tagId);
    const list = em.create(ContactList, {
      companyId,
      name: `${campaign.name} | TAG: ${tag.name} - ${new Date().toISOString()}`.slice(0, 200),
      campaignId: campaign.id,
    });
    await em.flush();
    await em.execute(
      ...named(
        `insert into contact_list_items (company_id, contact_list_id, name, number, email, is_whatsapp_valid, checked_at, created_at, updated_at)
         select distinct on (c.number) :company, :list, left(coalesce(nullif(btrim(c.name), ''), c.number), 100), c.number, left(coalesce(c.email, ''), 254),
                true, now(), now(), now()
           from ticket_tags tt join tickets t on t.id = tt.ticket_id join contacts c on c.id = t.contact_id
          where tt.company_id = :company and tt.tag_id = :tag and t.company_id = :company and c.company_id = :company
            and not c.is_group and c.number ~ '^[0-9]{8,50}$'
          order by c.number, c.id
         on conflict (contact_list_id, number) do nothing`,
        { company: companyId, list: list.id, tag: campaign.tagId },
      ),
    );
    if (campaign.contactListId) {
      await em.execute(
        `insert into contact_list_items (company_id, contact_list_id, name, number, email, is_whatsapp_valid, checked_at, created_at, updated_at)
         select ?, ?, i.name, i.number, i.email, i.is_whatsapp_valid, i.checked_at, now(), now()
           from contact_list_items i where i.company_id = ? and i.contact_list_id = ?
         on conflict (contact_list_id, number) do nothing`,
        [companyId, list.id, companyId, campaign.contactListId],
      );
    }
    campaign.snapshotListId = list.id;
  }
  if (previous) await em.execute(`delete from contact_lists where id = ? and company_id = ? and campaign_id = ?`, [previous, companyId, campaign.id]);
};

/** Replaces the campaign's start job by one at its scheduledAt (the sweep starts it if this fails). */
export const queueStart = async (deps: CampaignDeps, campaign: Campaign) => {
  const data: StartJobData = { companyId: campaign.companyId, campaignId: campaign.id };
  try {
    await deps.scheduler.agenda.cancel({ name: START_JOB, data });
    if (campaign.status === 'PROGRAMADA' && campaign.scheduledAt) await deps.scheduler.schedule(campaign.scheduledAt, START_JOB, data);
  } catch (err) {
    deps.logger.warn({ err, campaignId: campaign.id }, 'campaign start job not stored; the sweep will start it');
  }
};

const refsOf = (input: CreateCampaignInput | UpdateCampaignInput): Partial<Refs> => {
  const refs: Partial<Refs> = {};
  if (input.whatsappId !== undefined) refs.whatsappId = input.whatsappId;
  if (input.contactListId !== undefined) refs.contactListId = input.contactListId;
  // The form calls the tag tagListId; either name is taken, tagListId first.
  const tag = input.tagListId !== undefined ? input.tagListId : input.tagId;
  if (tag !== undefined) refs.tagId = tag;
  if (input.fileListId !== undefined) refs.fileListId = input.fileListId;
  return refs;
};

const apply = (campaign: Campaign, input: CreateCampaignInput | UpdateCampaignInput, refs: Partial<Refs>) => {
  if (input.name !== undefined) campaign.name = input.name;
  for (const field of CAMPAIGN_MESSAGE_FIELDS) if (input[field] !== undefined) campaign[field] = input[field];
  if (input.scheduledAt !== undefined) campaign.scheduledAt = input.scheduledAt;
  Object.assign(campaign, refs);
};

/** A scheduledAt makes it PROGRAMADA (once complete), none INATIVA; a paused (CANCELADA) one stays paused. */
const settleStatus = (campaign: Campaign) => {
  if (campaign.status === 'CANCELADA') return;
  campaign.status = campaign.scheduledAt ? 'PROGRAMADA' : 'INATIVA';
  if (campaign.status === 'PROGRAMADA') {
    const missing = missingForStart(campaign);
    if (missing.length > 0) throw new AppError('ERR_CAMPAIGN_INCOMPLETE', { fields: missing });
  }
};

/** POST /campaigns. */
export const createCampaign = async (ctx: ServiceContext, deps: CampaignDeps, input: CreateCampaignInput) => {
  const refs = refsOf(input);
  await assertRefs(ctx.em, refs);
  const id = await ctx.em.transactional(async (tx) => {
    const campaign = tx.create(Campaign, { companyId: requireTenant(tx), name: input.name });
    apply(campaign, input, refs);
    settleStatus(campaign);
    await tx.flush();
    if (campaign.tagId) await snapshotTagList(tx, campaign);
    await tx.flush();
    return campaign.id;
  });
  const campaign = await findCampaign(ctx.em.fork(), id);
  await queueStart(deps, campaign);
  return announceCampaign(ctx, deps.media, id, 'create');
};

/** PUT /campaigns/{id}: only while the stored campaign is editable, under its row lock (a start waits). */
export const updateCampaign = async (ctx: ServiceContext, deps: CampaignDeps, id: number, input: UpdateCampaignInput) => {
  const refs = refsOf(input);
  await assertRefs(ctx.em, refs);
  await ctx.em.transactional(async (tx) => {
    const campaign = await findCampaign(tx, id, true);
    if (!isCampaignEditable(campaign)) throw new AppError('ERR_CAMPAIGN_NOT_EDITABLE', { status: campaign.status });
    const before = { tagId: campaign.tagId, contactListId: campaign.contactListId };
    apply(campaign, input, refs);
    settleStatus(campaign);
    // A new snapshot only when its source changes (spec 04 section 1).
    if (campaign.tagId !== before.tagId || (campaign.tagId && campaign.contactListId !== before.contactListId)) await snapshotTagList(tx, campaign);
    await tx.flush();
  });
  await queueStart(deps, await findCampaign(ctx.em.fork(), id));
  return announceCampaign(ctx, deps.media, id);
};

/** DELETE /campaigns/{id}: refused while it runs; its rows, its tag list and its file go with it. */
export const deleteCampaign = async (ctx: ServiceContext, deps: CampaignDeps, id: number) => {
  const removed = await ctx.em.transactional(async (tx) => {
    const campaign = await findCampaign(tx, id, true);
    if (campaign.status === 'EM_ANDAMENTO') throw new AppError('ERR_CAMPAIGN_RUNNING');
    const { companyId, mediaPath, snapshotListId } = campaign;
    await tx.remove(campaign).flush();
    if (snapshotListId) await tx.execute(`delete from contact_lists where id = ? and company_id = ? and campaign_id = ?`, [snapshotListId, companyId, id]);
    return { companyId, mediaPath };
  });
  await deps.scheduler.agenda
    .cancel({ name: START_JOB, data: { companyId: removed.companyId, campaignId: id } satisfies StartJobData })
    .catch((err: unknown) => deps.logger.warn({ err, campaignId: id }, 'campaign start job not cancelled'));
  if (removed.mediaPath) await deps.media.remove(removed.companyId, removed.mediaPath).catch(() => undefined);
  ctx.events.emit('campaign.deleted', { companyId: removed.companyId, id });
};

/** POST /campaigns/{id}/media-upload: the campaign's file (sent with the message), while it may change. */
export const attachCampaignMedia = async (
  ctx: ServiceContext,
  deps: CampaignDeps,
  id: number,
  file: { data: Buffer; mimetype: string; filename: string },
) => {
  const campaign = await findCampaign(ctx.em, id);
  if (!isCampaignEditable(campaign)) throw new AppError('ERR_CAMPAIGN_NOT_EDITABLE', { status: campaign.status });
  const stored = await deps.media.save(campaign.companyId, file);
  const old = campaign.mediaPath;
  const changed = await ctx.em.transactional(async (tx) => {
    const locked = await findCampaign(tx, id, true);
    if (!isCampaignEditable(locked)) return false;
    locked.mediaPath = stored.fileName;
    locked.mediaName = stored.mediaName;
    return true;
  });
  if (!changed) {
    await deps.media.remove(campaign.companyId, stored.fileName).catch(() => undefined);
    throw new AppError('ERR_CAMPAIGN_NOT_EDITABLE');
  }
  if (old) await deps.media.remove(campaign.companyId, old).catch(() => undefined);
  return announceCampaign(ctx, deps.media, id);
};

/** DELETE /campaigns/{id}/media-upload. */
export const removeCampaignMedia = async (ctx: ServiceContext, deps: CampaignDeps, id: number) => {
  const old = await ctx.em.transactional(async (tx) => {
    const campaign = await findCampaign(tx, id, true);
    if (!isCampaignEditable(campaign)) throw new AppError('ERR_CAMPAIGN_NOT_EDITABLE', { status: campaign.status });
    const path = campaign.mediaPath;
    campaign.mediaPath = null;
    campaign.mediaName = null;
    if (campaign.status === 'PROGRAMADA' && missingForStart(campaign).length > 0) {
      throw new AppError('ERR_CAMPAIGN_INCOMPLETE', { fields: missingForStart(campaign) });
    }
    return { path, companyId: campaign.companyId };
  });
  if (old.path) await deps.media.remove(old.companyId, old.path).catch(() => undefined);
  return announceCampaign(ctx, deps.media, id);
};
