import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  FLOWS_PAGE_SIZE,
  graphProblems,
  type CreateFlowInput,
  type FlowDocumentView,
  type FlowGraph,
  type FlowRunView,
  type FlowView,
  type ListFlowsQuery,
  type SaveFlowGraphInput,
  type UpdateFlowInput,
} from '@atrium/shared';
import { pageOf, requireAdmin, type ServiceContext } from '../../context.js';
import { escapeLike } from '../../db/sql.js';
import { requireTenant } from '../../db/tenant.js';
import { assertUniqueName, nameTaken } from '../../db/unique-name.js';
import { AppError } from '../../errors.js';
import type { MediaStore } from '../../media/storage.js';
import type { Sealer } from '../../secrets/sealed.js';
import { Whatsapp } from '../connections/whatsapp.entity.js';
import { assertPlanFeature } from '../plans/index.js';
import { QueueIntegration } from '../queue-integrations/queue-integration.entity.js';
import { Queue } from '../queues/queue.entity.js';
import { Ticket } from '../tickets/ticket.entity.js';
import { assertMediaKnown, mediaUrls } from './flow-media.js';
import { Flow, FlowRun, FlowStep, FlowVersion } from './flow.entity.js';
import { sealKeys, withoutKeys } from './openai-keys.js';

export interface FlowServiceDeps {
  media: MediaStore;
  /** Seals the OpenAI nodes' keys (openai-keys.ts). */
  sealer: Sealer;
}

export const presentFlow = (flow: Flow): FlowView<Date> => ({
  id: flow.id,
  name: flow.name,
  active: flow.active,
  companyId: flow.companyId,
  version: flow.version,
  createdAt: flow.createdAt,
  updatedAt: flow.updatedAt,
});

const announce = (ctx: ServiceContext, action: 'create' | 'update', flow: Flow) => {
  const record = presentFlow(flow);
  ctx.events.emit('flow.changed', { companyId: flow.companyId, action, record });
  return record;
};

export const findFlow = async (em: EntityManager, id: number, lock = false) => {
  const flow = await em.findOne(Flow, id, lock ? { lockMode: LockMode.PESSIMISTIC_WRITE } : {});
  if (!flow) throw new AppError('ERR_NO_FLOW_FOUND');
  return flow;
};

/** Names are unique in a company whatever their case (spec 04 section 11; 409 rather than the old 402). */
const assertNameFree = (em: EntityManager, name: string, exceptId?: number) => assertUniqueName(em, Flow, name, 'ERR_FLOW_NAME_ALREADY_EXISTS', exceptId);
const nameRace = nameTaken('ERR_FLOW_NAME_ALREADY_EXISTS');

/** GET /flowbuilder: 20 a page by name, searching the name. */
export const listFlows = async (ctx: ServiceContext, query: ListFlowsQuery) => {
  const where = query.searchParam ? { name: { $ilike: `%${escapeLike(query.searchParam)}%` } } : {};
  const [flows, count] = await ctx.em.findAndCount(Flow, where, {
    orderBy: { name: 'asc', id: 'asc' },
    limit: FLOWS_PAGE_SIZE,
    offset: (query.pageNumber - 1) * FLOWS_PAGE_SIZE,
  });
  const page = pageOf(flows.map(presentFlow), count, query.pageNumber, FLOWS_PAGE_SIZE);
  return { flows: page.rows, count: page.count, hasMore: page.hasMore };
};

/** POST /flowbuilder (admins): a new flow, whose canvas is the start node until saved. */
export const createFlow = async (ctx: ServiceContext, input: CreateFlowInput) => {
  requireAdmin(ctx.actor);
  await assertNameFree(ctx.em, input.name);
  const flow = ctx.em.create(Flow, { companyId: requireTenant(ctx.em), name: input.name, active: input.active });
  await ctx.em.flush().catch(nameRace);
  return announce(ctx, 'create', flow);
};

/** PUT /flowbuilder (admins): rename, switch on or off. A flow switched off stops its runs at their next step. */
export const updateFlow = async (ctx: ServiceContext, input: UpdateFlowInput) => {
  requireAdmin(ctx.actor);
  const flow = await findFlow(ctx.em, input.flowId);
  if (input.name !== undefined) {
    await assertNameFree(ctx.em, input.name, flow.id);
    flow.name = input.name;
  }
  if (input.active !== undefined) flow.active = input.active;
  await ctx.em.flush().catch(nameRace);
  return announce(ctx, 'update', flow);
};

/**
 * DELETE /flowbuilder/{id} (admins): the flow, its versions and its flow campaigns; the connections that
 * greeted or answered with it no longer do, and conversations it held are let go (spec 04 section 11 note:
 * nothing is left dangling). The tickets' flow logs keep its runs, without the flow.
 */
export const deleteFlow = async (ctx: ServiceContext, id: number) => {
  requireAdmin(ctx.actor);
  const companyId = requireTenant(ctx.em);
  await ctx.em.transactional(async (tx) => {
    const flow = await findFlow(tx, id, true);
    await tx.execute(
      `update flow_runs set status = 'expired', ended_at = now() where flow_id = ? and company_id = ? and status in ('running', 'waiting')`,
      [flow.id, companyId],
    );
    await tx.execute(`delete from conversation_holds where company_id = ? and holder = 'flow' and holder_id = ?`, [companyId, flow.id]);
    await tx.nativeUpdate(Whatsapp, { flowIdWelcome: flow.id }, { flowIdWelcome: null });
    await tx.nativeUpdate(Whatsapp, { flowIdNotPhrase: flow.id }, { flowIdNotPhrase: null });
    await tx.nativeDelete(Flow, { id: flow.id });
  });
  ctx.events.emit('flow.deleted', { companyId, id });
  ctx.events.emit('flowcampaign.reload', { companyId });
};

/** A name not taken yet: "name - copy", then "name - copy 2"... (within the name's 50 characters). */
const copyName = async (em: EntityManager, name: string) => {
  for (let n = 1; n < 1000; n += 1) {
    const suffix = n === 1 ? ' - copy' : ` - copy ${n}`;
    const candidate = `${name.slice(0, 50 - suffix.length)}${suffix}`;
    if (!(await em.findOne(Flow, { name: { $ilike: escapeLike(candidate) } }, { fields: ['id'] }))) return candidate;
  }
  throw new AppError('ERR_FLOW_NAME_ALREADY_EXISTS');
};

/** POST /flowbuilder/duplicate (admins): a copy with its last saved canvas. */
export const duplicateFlow = async (ctx: ServiceContext, flowId: number) => {
  requireAdmin(ctx.actor);
  const source = await findFlow(ctx.em, flowId);
  const name = await copyName(ctx.em, source.name);
  const copy = await ctx.em.transactional(async (tx) => {
    const graph = source.version > 0 ? (await tx.findOne(FlowVersion, { flowId: source.id, version: source.version }))?.graph : undefined;
    const created = tx.create(Flow, { companyId: source.companyId, name, active: source.active, version: graph ? 1 : 0 });
    await tx.flush();
    if (graph) tx.create(FlowVersion, { flowId: created.id, version: 1, companyId: source.companyId, graph });
    await tx.flush();
    return created;
  }).catch(nameRace);
  return announce(ctx, 'create', copy);
};

/** GET /flowbuilder/flow/{id}: the flow and its last saved canvas (null until the first save). */
export const getFlowDocument = async (ctx: ServiceContext, deps: FlowServiceDeps, id: number): Promise<FlowDocumentView<Date>> => {
  const flow = await findFlow(ctx.em, id);
  const stored = flow.version > 0 ? await ctx.em.findOne(FlowVersion, { flowId: flow.id, version: flow.version }) : null;
  const graph = stored ? withoutKeys(stored.graph) : null;
  return { flow: { ...presentFlow(flow), flow: graph }, files: graph ? mediaUrls(deps.media, flow.companyId, graph) : {} };
};

/** The shape rules the schema cannot say (one start, edges between known nodes from real outputs...). */
export const assertGraphShape = (graph: FlowGraph) => {
  const problems = graphProblems(graph);
  if (problems.length > 0) throw new AppError('ERR_VALIDATION', { fields: problems });
};

/** The queues ticket nodes move to must be the company's. */
const assertQueuesKnown = async (em: EntityManager, graph: FlowGraph) => {
  const refs = graph.nodes.flatMap((n, i) => (n.type === 'ticket' ? [{ id: n.data.queue.id, path: `nodes.${i}.data.queue.id` }] : []));
  if (refs.length === 0) return;
  const known = new Set((await em.find(Queue, { id: { $in: refs.map((r) => r.id) } }, { fields: ['id'] })).map((q) => q.id));
  const bad = refs.filter((r) => !known.has(r.id));
  if (bad.length > 0) throw new AppError('ERR_VALIDATION', { fields: bad.map((r) => ({ path: r.path, message: 'no such queue' })) });
};

/** The Typebot nodes' integrations must be the company's Typebot integrations. */
const assertTypebotsKnown = async (em: EntityManager, graph: FlowGraph) => {
  const refs = graph.nodes.flatMap((n, i) => (n.type === 'typebot' ? [{ id: n.data.typebotIntegration.id, path: `nodes.${i}.data.typebotIntegration.id` }] : []));
  if (refs.length === 0) return;
  const known = new Set((await em.find(QueueIntegration, { id: { $in: refs.map((r) => r.id) }, type: 'typebot' }, { fields: ['id'] })).map((q) => q.id));
  const bad = refs.filter((r) => !known.has(r.id));
  if (bad.length > 0) throw new AppError('ERR_VALIDATION', { fields: bad.map((r) => ({ path: r.path, message: 'no such Typebot integration' })) });
};

/** A flow's AI and Typebot nodes need the plan's flags, as the screens they stand for do (spec 04 section 0). */
const assertPlanAllowsNodes = async (em: EntityManager, companyId: number, graph: FlowGraph) => {
  if (graph.nodes.some((n) => n.type === 'openai')) await assertPlanFeature(em, companyId, 'useOpenAi');
  if (graph.nodes.some((n) => n.type === 'typebot')) await assertPlanFeature(em, companyId, 'useIntegrations');
};

/**
 * POST /flowbuilder/flow (admins): saves the canvas whole as the flow's next version, which new runs start
 * on from now (runs under way finish on the version they started). Versions no run uses any more go.
 */
export const saveFlowGraph = async (ctx: ServiceContext, deps: FlowServiceDeps, input: SaveFlowGraphInput) => {
  requireAdmin(ctx.actor);
  const graph: FlowGraph = { nodes: input.nodes, connections: input.connections };
  assertGraphShape(graph);
  await assertMediaKnown(ctx.em, graph);
  await assertQueuesKnown(ctx.em, graph);
  await assertTypebotsKnown(ctx.em, graph);
  await assertPlanAllowsNodes(ctx.em, ctx.actor.companyId, graph);
  const flow = await ctx.em.transactional(async (tx) => {
    const flow = await findFlow(tx, input.idFlow, true);
    const previous = flow.version > 0 ? await tx.findOne(FlowVersion, { flowId: flow.id, version: flow.version }) : null;
    const sealed = sealKeys(deps.sealer, flow.companyId, graph, previous?.graph ?? null);
    if (sealed.missing.length > 0) throw new AppError('ERR_VALIDATION', { fields: sealed.missing.map((path) => ({ path, message: 'an API key is required' })) });
    flow.version += 1;
    flow.updatedAt = new Date();
    tx.create(FlowVersion, { flowId: flow.id, version: flow.version, companyId: flow.companyId, graph: sealed.graph });
    await tx.flush();
    await tx.execute(
      `delete from flow_versions v where v.flow_id = ? and v.version < ?
         and not exists (select 1 from flow_runs r where r.flow_id = v.flow_id and r.version = v.version and r.status in ('running', 'waiting'))`,
      [flow.id, flow.version],
    );
    return flow;
  });
  announce(ctx, 'update', flow);
  return getFlowDocument(ctx, deps, flow.id);
};

/** GET /flowbuilder/log/{ticketId} (admins): the flows that ran on the ticket, each with its steps. */
export const ticketFlowLog = async (ctx: ServiceContext, ticketId: number): Promise<FlowRunView<Date>[]> => {
  requireAdmin(ctx.actor);
  if (!(await ctx.em.findOne(Ticket, ticketId, { fields: ['id'] }))) throw new AppError('ERR_NO_TICKET_FOUND');
  const runs = await ctx.em.find(FlowRun, { ticketId }, { orderBy: { id: 'desc' }, limit: 50 });
  if (runs.length === 0) return [];
  const [steps, flows] = await Promise.all([
    ctx.em.find(FlowStep, { runId: { $in: runs.map((r) => r.id) } }, { orderBy: { id: 'asc' }, limit: 5000 }),
    ctx.em.find(Flow, { id: { $in: [...new Set(runs.flatMap((r) => (r.flowId ? [r.flowId] : [])))] } }, { fields: ['id', 'name'] }),
  ]);
  const names = new Map(flows.map((f) => [f.id, f.name]));
  return runs.map((run) => ({
    id: run.id,
    flowId: run.flowId,
    flowName: run.flowId ? (names.get(run.flowId) ?? null) : null,
    version: run.version,
    trigger: run.trigger,
    status: run.status,
    startedAt: run.startedAt,
    endedAt: run.endedAt,
    steps: steps
      .filter((s) => s.runId === run.id)
      .map((s) => ({ nodeId: s.nodeId, nodeType: s.nodeType, outcome: s.outcome, detail: s.detail, at: s.createdAt })),
  }));
};
