import { escapeLike } from '../../db/sql.js';
import { assertUniqueName, nameTaken } from '../../db/unique-name.js';
import { QueryOrder } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  TAG_DEFAULT_COLOR,
  TAGS_PAGE_SIZE,
  type CreateTagInput,
  type ListQuery,
  type ReorderKanbanLanesInput,
  type SyncTagsInput,
  type TagView,
  type UpdateTagInput,
} from '@atrium/shared';
import { emForCompany, pageOf, requireAdmin, type ServiceContext } from '../../context.js';
import { requireTenant } from '../../db/tenant.js';
import { AppError } from '../../errors.js';
import { assertPlanFeature } from '../plans/index.js';
import { findVisibleTicket, presentTicket } from '../tickets/index.js';
import { Tag, TicketTag } from './tag.entity.js';

export const presentTag = (tag: Tag, ticketsCount?: number): TagView<Date> => ({
  id: tag.id,
  name: tag.name,
  color: tag.color,
  kanban: tag.kanban,
  position: tag.position,
  userId: tag.userId,
  companyId: tag.companyId,
  ...(ticketsCount !== undefined ? { ticketsCount } : {}),
  createdAt: tag.createdAt,
  updatedAt: tag.updatedAt,
});


const findTag = async (em: EntityManager, id: number) => {
  const tag = await em.findOne(Tag, id);
  if (!tag) throw new AppError('ERR_NO_TAG_FOUND');
  return tag;
};

/** Names are unique in a company, whatever their case: "VIP" and "vip" would be one tag to a person. */
const findByName = (em: EntityManager, name: string) => em.findOne(Tag, { name: { $ilike: escapeLike(name) } });

const assertNameFree = (em: EntityManager, name: string, exceptId?: number) => assertUniqueName(em, Tag, name, 'ERR_TAG_ALREADY_EXISTS', exceptId);
const nameRace = nameTaken('ERR_TAG_ALREADY_EXISTS');

/** The kanban switch is for admins (spec 02 section 6); the server holds the line the form draws. */
const assertMaySetKanban = (ctx: ServiceContext, kanban: number | undefined, current = 0) => {
  if (kanban !== undefined && kanban !== current) requireAdmin(ctx.actor);
};

/** How many tickets carry each tag. */
const ticketCounts = async (em: EntityManager, tagIds: number[]) => {
  if (tagIds.length === 0) return new Map<number, number>();
  const rows = await em.execute<{ tag_id: number; count: number }[]>(
    `select tag_id, count(*)::int as count from ticket_tags
      where company_id = ? and tag_id in (${tagIds.map(() => '?').join(', ')}) group by tag_id`,
    [requireTenant(em), ...tagIds],
  );
  return new Map(rows.map((r) => [r.tag_id, Number(r.count)]));
};

/** GET /tags/: 20 per page by name, searching name or colour, each with its ticket count. */
export const listTags = async (ctx: ServiceContext, query: ListQuery) => {
  const term = `%${escapeLike(query.searchParam)}%`;
  const where = query.searchParam ? { $or: [{ name: { $ilike: term } }, { color: { $ilike: term } }] } : {};
  const [tags, count] = await ctx.em.findAndCount(Tag, where, {
    orderBy: { name: 'asc', id: 'asc' },
    limit: TAGS_PAGE_SIZE,
    offset: (query.pageNumber - 1) * TAGS_PAGE_SIZE,
  });
  const counts = await ticketCounts(ctx.em, tags.map((t) => t.id));
  const page = pageOf(tags.map((t) => presentTag(t, counts.get(t.id) ?? 0)), count, query.pageNumber, TAGS_PAGE_SIZE);
  return { tags: page.rows, count: page.count, hasMore: page.hasMore };
};

/** GET /tags/list: every tag of the company (the caller's; another one for super users only). */
export const listAllTags = async (ctx: ServiceContext, companyId = ctx.actor.companyId) =>
  (await emForCompany(ctx, companyId).find(Tag, { companyId }, { orderBy: { name: 'asc', id: 'asc' } })).map((t) => presentTag(t));

/** The company's kanban lanes in board order: as the admin placed them, then the unplaced ones by id. */
export const kanbanLanes = (em: EntityManager) =>
  em.find(Tag, { kanban: 1 }, { orderBy: { position: QueryOrder.ASC_NULLS_LAST, id: QueryOrder.ASC } });

/** GET /tags/kanban: the kanban lanes in board order (spec 04 section 4 orders them by id; the admin's order wins here). */
export const listKanbanTags = async (ctx: ServiceContext) => {
  await assertPlanFeature(ctx.em, ctx.actor.companyId, 'useKanban');
  return { lista: (await kanbanLanes(ctx.em)).map((t) => presentTag(t)) };
};

/**
 * PUT /tags/kanban/order (admins): the lanes named go first, in that order; lanes not named keep their
 * order after them. Every lane whose place changed is announced.
 */
export const reorderKanbanLanes = async (ctx: ServiceContext, input: ReorderKanbanLanesInput) => {
  requireAdmin(ctx.actor);
  await assertPlanFeature(ctx.em, ctx.actor.companyId, 'useKanban');
  await ctx.em.transactional(async (tx) => {
    // One reorder at a time per company: two admins dragging at once end with one of their orders, whole.
    await tx.execute('select id from tags where company_id = ? and kanban = 1 order by id for update', [requireTenant(tx)]);
    const lanes = await kanbanLanes(tx);
    const byId = new Map(lanes.map((t) => [t.id, t]));
    const missing = input.tagIds.find((id) => !byId.has(id));
    if (missing !== undefined) throw new AppError('ERR_NO_TAG_FOUND', { tagId: missing });
    const named = new Set(input.tagIds);
    const ordered = [...input.tagIds.map((id) => byId.get(id)!), ...lanes.filter((t) => !named.has(t.id))];
    ordered.forEach((tag, index) => {
      if (tag.position === index + 1) return;
      tag.position = index + 1;
      ctx.events.emit('tag.changed', { companyId: tag.companyId, action: 'update', tag: presentTag(tag) });
    });
  });
  return { lista: (await kanbanLanes(ctx.em)).map((t) => presentTag(t)) };
};

export const getTag = async (ctx: ServiceContext, id: number) => {
  const tag = await findTag(ctx.em, id);
  return presentTag(tag, (await ticketCounts(ctx.em, [id])).get(id) ?? 0);
};

export const createTag = async (ctx: ServiceContext, input: CreateTagInput) => {
  assertMaySetKanban(ctx, input.kanban);
  await assertNameFree(ctx.em, input.name);
  const tag = ctx.em.create(Tag, {
    companyId: requireTenant(ctx.em),
    name: input.name,
    color: input.color,
    kanban: input.kanban,
    userId: ctx.actor.userId,
  });
  await ctx.em.flush().catch(nameRace);
  const view = presentTag(tag, 0);
  ctx.events.emit('tag.changed', { companyId: tag.companyId, action: 'create', tag: view });
  return view;
};

/** PUT /tags/{id}: admins only. The creator stays the creator. */
export const updateTag = async (ctx: ServiceContext, id: number, input: UpdateTagInput) => {
  requireAdmin(ctx.actor);
  const tag = await findTag(ctx.em, id);
  if (input.name !== undefined && input.name !== tag.name) await assertNameFree(ctx.em, input.name, id);
  if (input.name !== undefined) tag.name = input.name;
  if (input.color !== undefined) tag.color = input.color;
  if (input.kanban !== undefined && input.kanban !== tag.kanban) {
    tag.kanban = input.kanban;
    // A new lane goes to the end of the board; a tag that stops being a lane forgets its place.
    tag.position = null;
  }
  await ctx.em.flush().catch(nameRace);
  const view = await getTag(ctx, id);
  ctx.events.emit('tag.changed', { companyId: tag.companyId, action: 'update', tag: view });
  return view;
};

/** DELETE /tags/{id}: the tag leaves every ticket that had it. */
export const deleteTag = async (ctx: ServiceContext, id: number) => {
  const tag = await findTag(ctx.em, id);
  await ctx.em.remove(tag).flush();
  ctx.events.emit('tag.deleted', { companyId: tag.companyId, tagId: id });
};

/** The tag named `name`, created (with `color`) when the company has none by that name. */
const tagNamed = async (ctx: ServiceContext, em: EntityManager, name: string, color: string | undefined) => {
  const existing = await findByName(em, name);
  if (existing) return existing;
  const rows = await em.execute<{ id: number }[]>(
    `insert into tags (company_id, name, color, kanban, user_id, created_at, updated_at)
     values (?, ?, ?, 0, ?, now(), now())
     on conflict (company_id, name) do nothing returning id`,
    [requireTenant(em), name, color ?? TAG_DEFAULT_COLOR, ctx.actor.userId],
  );
  // A concurrent request created it first: use theirs.
  const tag = rows.length > 0 ? await em.findOne(Tag, rows[0].id) : await findByName(em, name);
  if (!tag) throw new AppError('ERR_NO_TAG_FOUND');
  if (rows.length > 0) ctx.events.emit('tag.changed', { companyId: tag.companyId, action: 'create', tag: presentTag(tag, 0) });
  return tag;
};

/**
 * POST /tags/sync: the ticket (one the caller may see) carries exactly the tags sent; tags given by name
 * and unknown are created. The lists learn the new tags through ticket.changed.
 */
export const syncTicketTags = async (ctx: ServiceContext, input: SyncTagsInput) => {
  const ticket = await findVisibleTicket(ctx, input.ticketId);
  await ctx.em.transactional(async (tx) => {
    const tagIds = new Set<number>();
    for (const item of input.tags) {
      if ('id' in item) {
        if (!(await tx.findOne(Tag, item.id, { fields: ['id'] }))) throw new AppError('ERR_NO_TAG_FOUND', { tagId: item.id });
        tagIds.add(item.id);
      } else {
        tagIds.add((await tagNamed(ctx, tx, item.name, item.color)).id);
      }
    }
    const wanted = [...tagIds];
    await tx.nativeDelete(TicketTag, { ticketId: ticket.id, ...(wanted.length > 0 ? { tagId: { $nin: wanted } } : {}) });
    if (wanted.length > 0) {
      await tx.execute(
        `insert into ticket_tags (ticket_id, tag_id, company_id)
         values ${wanted.map(() => '(?, ?, ?)').join(', ')} on conflict do nothing`,
        wanted.flatMap((tagId) => [ticket.id, tagId, ticket.companyId]),
      );
    }
  });
  const presented = await presentTicket(ctx.em, ticket);
  ctx.events.emit('ticket.changed', { companyId: ticket.companyId, ticket: presented });
  return presented;
};
