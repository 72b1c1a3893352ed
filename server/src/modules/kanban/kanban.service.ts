import type { EntityManager } from '@mikro-orm/postgresql';
import {
  KANBAN_PAGE_SIZE,
  type KanbanBoardQuery,
  type KanbanBoardView,
  type KanbanLanePageView,
  type MoveKanbanCardInput,
  type TicketView,
} from '@atrium/shared';
import type { ServiceContext } from '../../context.js';
import { intArray } from '../../db/sql.js';
import { requireTenant } from '../../db/tenant.js';
import { AppError } from '../../errors.js';
import { assertPlanFeature } from '../plans/index.js';
import { Tag } from '../tags/tag.entity.js';
import { kanbanLanes, presentTag } from '../tags/index.js';
import type { Ticket } from '../tickets/ticket.entity.js';
import { defaultListClause, findVisibleTicket, loadViewer, presentTickets, queueFilterClause, type TicketClause, type Viewer } from '../tickets/index.js';

/**
 * The kanban board (spec 02 sections 2 and 4, spec 04 section 4 with its Notes): tickets waiting or in
 * attendance, one lane per kanban tag and one for tickets without any. A ticket carrying two kanban tags
 * (tagged outside the board) shows in both lanes; a move leaves it in exactly one.
 */

const requireKanban = (ctx: ServiceContext) => assertPlanFeature(ctx.em, ctx.actor.companyId, 'useKanban');

/**
 * Which tickets the caller's board holds: pending and open ones, as the ticket list shows them (the list's
 * own visibility clauses: showAll only for admins, agents their queues' waiting tickets and their own).
 */
const boardClause = (companyId: number, viewer: Viewer, query: KanbanBoardQuery): TicketClause => {
  const parts: TicketClause[] = [{ sql: `t.company_id = ? and t.status in ('pending', 'open')`, params: [companyId] }];
  for (const clause of [defaultListClause(viewer, query.showAll), queueFilterClause(viewer, query.queueIds)]) {
    if (clause) parts.push(clause);
  }
  return { sql: parts.map((p) => p.sql).join(' and '), params: parts.flatMap((p) => p.params) };
};

/** A lane's tickets: those carrying its tag, or (null) those carrying none of the lanes' tags. */
const laneClause = (lane: number | null, laneIds: number[]): TicketClause =>
  lane === null
    ? { sql: 'not exists (select 1 from ticket_tags tt where tt.ticket_id = t.id and tt.tag_id = any(?::int[]))', params: [intArray(laneIds)] }
    : { sql: 'exists (select 1 from ticket_tags tt where tt.ticket_id = t.id and tt.tag_id = ?)', params: [lane] };

const ORDER = 'order by t.updated_at desc, t.id desc';

/** Tickets per lane, in one statement: one count for each kanban tag and one for the tickets without. */
const laneCounts = async (em: EntityManager, board: TicketClause, laneIds: number[]) => {
  const none = laneClause(null, laneIds);
  const rows = await em.execute<{ lane: number | null; count: number }[]>(
    `select tt.tag_id as lane, count(*)::int as count
       from tickets t join ticket_tags tt on tt.ticket_id = t.id and tt.tag_id = any(?::int[])
      where ${board.sql} group by tt.tag_id
     union all
     select null, count(*)::int from tickets t where ${board.sql} and ${none.sql}`,
    [intArray(laneIds), ...board.params, ...board.params, ...none.params],
  );
  return new Map(rows.map((r) => [r.lane, Number(r.count)]));
};

/** The first `limit` ticket ids of every lane, newest activity first, in one statement. */
const firstPages = async (em: EntityManager, board: TicketClause, laneIds: number[], limit: number) => {
  const none = laneClause(null, laneIds);
  const rows = await em.execute<{ lane: number | null; id: number }[]>(
    `select l.lane, x.id from unnest(?::int[]) as l(lane)
       cross join lateral (
         select t.id from tickets t
          where ${board.sql} and exists (select 1 from ticket_tags tt where tt.ticket_id = t.id and tt.tag_id = l.lane)
          ${ORDER} limit ?) x
     union all
     (select null, t.id from tickets t where ${board.sql} and ${none.sql} ${ORDER} limit ?)`,
    [intArray(laneIds), ...board.params, limit, ...board.params, ...none.params, limit],
  );
  return rows;
};

/** GET /ticket/kanban: the first page of every lane with the lanes' counts, or (with `lane`) one lane's page. */
export const getKanbanBoard = async (
  ctx: ServiceContext,
  query: KanbanBoardQuery,
): Promise<KanbanBoardView<Date> | KanbanLanePageView<Date>> => {
  const companyId = requireTenant(ctx.em);
  // Independent reads, side by side: the board is a hot path.
  const [, viewer, lanes] = await Promise.all([requireKanban(ctx), loadViewer(ctx.em, ctx.actor), kanbanLanes(ctx.em)]);
  const laneIds = lanes.map((t) => t.id);
  const board = boardClause(companyId, viewer, query);
  const size = KANBAN_PAGE_SIZE;

  if (query.lane !== undefined) {
    const lane = query.lane === 'none' ? null : query.lane;
    if (lane !== null && !laneIds.includes(lane)) throw new AppError('ERR_NO_TAG_FOUND');
    const only = laneClause(lane, laneIds);
    const where = `${board.sql} and ${only.sql}`;
    const params = [...board.params, ...only.params];
    const [rows, counted] = await Promise.all([
      ctx.em.execute<{ id: number }[]>(`select t.id from tickets t where ${where} ${ORDER} limit ? offset ?`, [
        ...params,
        size,
        (query.pageNumber - 1) * size,
      ]),
      ctx.em.execute<{ count: number }[]>(`select count(*)::int as count from tickets t where ${where}`, params),
    ]);
    const count = Number(counted[0]?.count ?? 0);
    return { tickets: await presentTickets(ctx.em, rows.map((r) => r.id)), count, hasMore: count > query.pageNumber * size };
  }

  const [counts, pages] = await Promise.all([laneCounts(ctx.em, board, laneIds), firstPages(ctx.em, board, laneIds, size)]);
  const ids = [...new Set(pages.map((r) => r.id))];
  const laneView = (tag: Tag | null) => {
    const count = counts.get(tag?.id ?? null) ?? 0;
    return { tagId: tag?.id ?? null, tag: tag ? presentTag(tag) : null, count, hasMore: count > size };
  };
  return { tickets: await presentTickets(ctx.em, ids), lanes: [laneView(null), ...lanes.map(laneView)] };
};

/** A kanban lane of the company (404 for another company's tag, for a tag that is no lane, or for none). */
const findLane = async (em: EntityManager, tagId: number) => {
  const tag = await em.findOne(Tag, { id: tagId, kanban: 1 });
  if (!tag) throw new AppError('ERR_NO_TAG_FOUND');
  return tag;
};

/** Removes the ticket's kanban tags (all but `keep`): what leaving a lane means. */
const dropLaneTags = (em: EntityManager, ticket: Ticket, keep: number | null) =>
  em.execute(
    `delete from ticket_tags tt using tags g
      where tt.ticket_id = ? and tt.company_id = ? and g.id = tt.tag_id and g.kanban = 1 ${keep === null ? '' : 'and tt.tag_id <> ?'}`,
    keep === null ? [ticket.id, ticket.companyId] : [ticket.id, ticket.companyId, keep],
  );

/** Links the ticket to the tag once (links are unique: a second add is a no-op). */
const linkTag = (em: EntityManager, ticket: Ticket, tagId: number) =>
  em.execute('insert into ticket_tags (ticket_id, tag_id, company_id) values (?, ?, ?) on conflict do nothing', [
    ticket.id,
    tagId,
    ticket.companyId,
  ]);

/** Concurrent changes to one ticket's lanes wait for each other, so a card never ends in two lanes. */
const lockTicket = (em: EntityManager, ticket: Ticket) =>
  em.execute('select id from tickets where id = ? and company_id = ? for update', [ticket.id, ticket.companyId]);

/** Tells the lists and boards that show the ticket (its tags changed; where it sits did not). */
const announce = async (ctx: ServiceContext, ticket: Ticket): Promise<TicketView<Date>> => {
  // One statement for the view: a move is a hot path.
  const [presented] = await presentTickets(ctx.em, [ticket.id]);
  ctx.events.emit('ticket.changed', { companyId: ticket.companyId, ticket: presented });
  return presented;
};

/**
 * PUT /ticket/{ticketId}/kanban: the card moves to the lane of `tagId` (null: the lane without a kanban
 * tag) in one transaction: its kanban tags go and the target's comes, or nothing changes.
 */
export const moveKanbanCard = async (ctx: ServiceContext, ticketId: number, input: MoveKanbanCardInput) => {
  await requireKanban(ctx);
  const ticket = await findVisibleTicket(ctx, ticketId);
  await ctx.em.transactional(async (tx) => {
    await lockTicket(tx, ticket);
    const target = input.tagId === null ? null : await findLane(tx, input.tagId);
    await dropLaneTags(tx, ticket, target?.id ?? null);
    if (target) await linkTag(tx, ticket, target.id);
  });
  return announce(ctx, ticket);
};

/** PUT /ticket-tags/{ticketId}/{tagId}: adds the tag (any tag of the company) to a ticket the caller may see. */
export const addTicketTag = async (ctx: ServiceContext, ticketId: number, tagId: number) => {
  await requireKanban(ctx);
  const ticket = await findVisibleTicket(ctx, ticketId);
  if (!(await ctx.em.findOne(Tag, tagId, { fields: ['id'] }))) throw new AppError('ERR_NO_TAG_FOUND');
  await ctx.em.transactional(async (tx) => {
    await lockTicket(tx, ticket);
    await linkTag(tx, ticket, tagId);
  });
  return { ticketId: ticket.id, tagId, ticket: await announce(ctx, ticket) };
};

/** DELETE /ticket-tags/{ticketId}: the ticket leaves its kanban lanes (its other tags stay). */
export const removeTicketKanbanTags = async (ctx: ServiceContext, ticketId: number) => {
  await requireKanban(ctx);
  const ticket = await findVisibleTicket(ctx, ticketId);
  await ctx.em.transactional(async (tx) => {
    await lockTicket(tx, ticket);
    await dropLaneTags(tx, ticket, null);
  });
  return { ticketId: ticket.id, ticket: await announce(ctx, ticket) };
};
