import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { can, normalizePhrase, type CreateFlowCampaignInput, type FlowCampaignView, type UpdateFlowCampaignInput } from '@atrium/shared';
import { requireAdmin, type ServiceContext } from '../../context.js';
import { escapeLike } from '../../db/sql.js';
import { requireTenant } from '../../db/tenant.js';
import { AppError } from '../../errors.js';
import { Whatsapp } from '../connections/whatsapp.entity.js';
import { Flow, FlowCampaign } from './flow.entity.js';

/**
 * Flow campaigns (spec 02 section 7, spec 04 section 12 with its note): a phrase on a connection starts a
 * flow. Phrases are compared trimmed, without case, accents or repeated spaces, and are unique per
 * connection in that form; inactive campaigns never match. Admins write; deleting follows the
 * contacts-page:deleteContact rule, as the screen's delete button does.
 */
const present = (c: FlowCampaign, flows: Map<number, Flow>, connections: Map<number, Pick<Whatsapp, 'id' | 'name'>>): FlowCampaignView<Date> => {
  const flow = flows.get(c.flowId);
  const whatsapp = connections.get(c.whatsappId);
  return {
    id: c.id,
    name: c.name,
    flowId: c.flowId,
    whatsappId: c.whatsappId,
    phrase: c.phrase,
    status: c.status,
    matchType: c.matchType,
    companyId: c.companyId,
    flow: flow ? { id: flow.id, name: flow.name, active: flow.active } : null,
    whatsapp: whatsapp ? { id: whatsapp.id, name: whatsapp.name } : null,
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
  };
};

const presentAll = async (em: EntityManager, campaigns: FlowCampaign[]) => {
  const [flows, connections] = await Promise.all([
    em.find(Flow, { id: { $in: [...new Set(campaigns.map((c) => c.flowId))] } }),
    em.find(Whatsapp, { id: { $in: [...new Set(campaigns.map((c) => c.whatsappId))] } }, { fields: ['id', 'name'] }),
  ]);
  const flowsById = new Map(flows.map((f) => [f.id, f]));
  const connectionsById = new Map(connections.map((w) => [w.id, { id: w.id, name: w.name }]));
  return campaigns.map((c) => present(c, flowsById, connectionsById));
};

const findCampaign = async (em: EntityManager, id: number) => {
  const campaign = await em.findOne(FlowCampaign, id);
  if (!campaign) throw new AppError('ERR_NO_FLOW_CAMPAIGN_FOUND');
  return campaign;
};

const assertRefs = async (em: EntityManager, input: { flowId?: number; whatsappId?: number }) => {
  if (input.flowId !== undefined && !(await em.findOne(Flow, input.flowId, { fields: ['id'] }))) throw new AppError('ERR_NO_FLOW_FOUND');
  if (input.whatsappId !== undefined && !(await em.findOne(Whatsapp, input.whatsappId, { fields: ['id'] }))) throw new AppError('ERR_NO_WAPP_FOUND');
};

const assertPhraseFree = async (em: EntityManager, whatsappId: number, phraseKey: string, exceptId?: number) => {
  const other = await em.findOne(FlowCampaign, { whatsappId, phraseKey }, { fields: ['id'] });
  if (other && other.id !== exceptId) throw new AppError('ERR_FLOW_PHRASE_ALREADY_EXISTS');
};

const phraseRace = (err: unknown): never => {
  if (err instanceof UniqueConstraintViolationException) throw new AppError('ERR_FLOW_PHRASE_ALREADY_EXISTS');
  throw err;
};

const announce = async (ctx: ServiceContext, action: 'create' | 'update', campaign: FlowCampaign) => {
  const [record] = await presentAll(ctx.em, [campaign]);
  ctx.events.emit('flowcampaign.changed', { companyId: campaign.companyId, action, record });
  return record;
};

/** GET /flowcampaign: every campaign of the company (`flow` in the answer, as the contract reads it). */
export const listFlowCampaigns = async (ctx: ServiceContext, searchParam = '') => {
  const where = searchParam ? { $or: [{ name: { $ilike: `%${escapeLike(searchParam)}%` } }, { phrase: { $ilike: `%${escapeLike(searchParam)}%` } }] } : {};
  const campaigns = await ctx.em.find(FlowCampaign, where, { orderBy: { name: 'asc', id: 'asc' }, limit: 1000 });
  return { flow: await presentAll(ctx.em, campaigns) };
};

export const getFlowCampaign = async (ctx: ServiceContext, id: number) => (await presentAll(ctx.em, [await findCampaign(ctx.em, id)]))[0];

/** POST /flowcampaign (admins). */
export const createFlowCampaign = async (ctx: ServiceContext, input: CreateFlowCampaignInput) => {
  requireAdmin(ctx.actor);
  await assertRefs(ctx.em, input);
  const phraseKey = normalizePhrase(input.phrase);
  if (!phraseKey) throw new AppError('ERR_VALIDATION', { fields: [{ path: 'phrase', message: 'required' }] });
  await assertPhraseFree(ctx.em, input.whatsappId, phraseKey);
  const campaign = ctx.em.create(FlowCampaign, {
    companyId: requireTenant(ctx.em),
    name: input.name,
    flowId: input.flowId,
    whatsappId: input.whatsappId,
    phrase: input.phrase,
    phraseKey,
    status: input.status,
    matchType: input.matchType,
  });
  await ctx.em.flush().catch(phraseRace);
  return announce(ctx, 'create', campaign);
};

/** PUT /flowcampaign (admins): only what is sent changes (the connection too, unlike the old product). */
export const updateFlowCampaign = async (ctx: ServiceContext, input: UpdateFlowCampaignInput) => {
  requireAdmin(ctx.actor);
  const campaign = await findCampaign(ctx.em, input.id);
  await assertRefs(ctx.em, input);
  const phrase = input.phrase ?? campaign.phrase;
  const phraseKey = normalizePhrase(phrase);
  if (!phraseKey) throw new AppError('ERR_VALIDATION', { fields: [{ path: 'phrase', message: 'required' }] });
  const whatsappId = input.whatsappId ?? campaign.whatsappId;
  await assertPhraseFree(ctx.em, whatsappId, phraseKey, campaign.id);
  Object.assign(campaign, {
    ...(input.name !== undefined ? { name: input.name } : {}),
    ...(input.flowId !== undefined ? { flowId: input.flowId } : {}),
    ...(input.status !== undefined ? { status: input.status } : {}),
    ...(input.matchType !== undefined ? { matchType: input.matchType } : {}),
    whatsappId,
    phrase,
    phraseKey,
  });
  await ctx.em.flush().catch(phraseRace);
  return announce(ctx, 'update', campaign);
};

/** DELETE /flowcampaign/{id}: under the contacts-page:deleteContact rule (spec 02 section 6). */
export const deleteFlowCampaign = async (ctx: ServiceContext, id: number) => {
  if (!can(ctx.actor.profile, 'contacts-page:deleteContact') && !ctx.actor.isSuper) throw new AppError('ERR_NO_PERMISSION');
  const campaign = await findCampaign(ctx.em, id);
  await ctx.em.nativeDelete(FlowCampaign, { id: campaign.id });
  ctx.events.emit('flowcampaign.deleted', { companyId: campaign.companyId, id: campaign.id });
};
