import type { ConnectionSessionView, ConnectionView } from '@atrium/shared';
import { assertUniqueName, nameTaken } from '../../db/unique-name.js';
import { createHash, randomBytes } from 'node:crypto';
import { LockMode } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { greetingRequired, type CreateConnectionInput, type UpdateConnectionInput } from '@atrium/shared';
import type { ChannelManager } from '../../channels/manager.js';
import { emForCompany, isAdmin, requireAdmin, type ServiceContext } from '../../context.js';
import { AppError } from '../../errors.js';
import { forSystem } from '../../db/tenant.js';
import { Company } from '../companies/company.entity.js';
import { Flow } from '../flows/flow.entity.js';
import { assertPlanAllows } from '../plans/index.js';
import { Queue } from '../queues/queue.entity.js';
import { Ticket } from '../tickets/ticket.entity.js';
import { User } from '../users/user.entity.js';
import { Prompt } from '../prompts/prompt.entity.js';
import { QueueIntegration } from '../queue-integrations/queue-integration.entity.js';
import { Whatsapp, WhatsappQueue } from './whatsapp.entity.js';

/** The integration and prompt a connection names are the company's own. */
const assertAutomation = async (em: EntityManager, input: { integrationId?: number | null; promptId?: number | null }) => {
  if (input.integrationId && !(await em.findOne(QueueIntegration, input.integrationId, { fields: ['id'] }))) throw new AppError('ERR_NO_INTEGRATION_FOUND');
  if (input.promptId && !(await em.findOne(Prompt, input.promptId, { fields: ['id'] }))) throw new AppError('ERR_NO_PROMPT_FOUND');
};

export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');
const newToken = () => randomBytes(24).toString('base64url');

/**
 * The connection an API token belongs to, whichever company's (the token decides the company), or null.
 * `em` may be the system manager: only the token's hash is compared, never the token.
 */
export const connectionOfToken = (em: EntityManager, token: string): Promise<Whatsapp | null> =>
  forSystem(em).findOne(Whatsapp, { tokenHash: hashToken(token) });

/** A connection as the API shows it: never its credentials or token hash. */
export const presentWhatsapp = (w: Whatsapp, queues: Queue[] = []): ConnectionView<Date> => ({
  id: w.id,
  name: w.name,
  status: w.status,
  qrcode: w.qrcode,
  retries: w.retries,
  disconnectReason: w.disconnectReason,
  isDefault: w.isDefault,
  provider: w.provider,
  number: w.number,
  greetingMessage: w.greetingMessage,
  complationMessage: w.complationMessage,
  outOfHoursMessage: w.outOfHoursMessage,
  ratingMessage: w.ratingMessage,
  expiresInactiveMessage: w.expiresInactiveMessage,
  expiresTicket: w.expiresTicket,
  timeUseBotQueues: w.timeUseBotQueues,
  maxUseBotQueues: w.maxUseBotQueues,
  transferQueueId: w.transferQueueId,
  timeToTransfer: w.timeToTransfer,
  integrationId: w.integrationId,
  promptId: w.promptId,
  flowIdWelcome: w.flowIdWelcome,
  flowIdNotPhrase: w.flowIdNotPhrase,
  hasToken: w.tokenHash !== null,
  companyId: w.companyId,
  queues: queues.map((q) => ({ id: q.id, name: q.name, color: q.color, orderQueue: q.orderQueue })),
  queueIds: queues.map((q) => q.id),
  createdAt: w.createdAt,
  updatedAt: w.updatedAt,
});

/**
 * What an agent sees of a connection: no QR code. Scanning it links a phone to the company's connection,
 * which is the admins' to do (the session column is theirs, spec 01 section 2).
 */
export const withoutQr = <T extends { qrcode: string }>(view: T): T => ({ ...view, qrcode: '' });
const forViewer = <T extends { qrcode: string }>(ctx: ServiceContext, view: T): T => (isAdmin(ctx.actor) ? view : withoutQr(view));

/** The live-session part, for `whatsappSession` events. */
export const presentSession = (w: Whatsapp): ConnectionSessionView<Date> => ({
  id: w.id,
  name: w.name,
  status: w.status,
  qrcode: w.qrcode,
  retries: w.retries,
  disconnectReason: w.disconnectReason,
  number: w.number,
  updatedAt: w.updatedAt,
});

const queuesOf = async (em: EntityManager, whatsappIds: number[]) => {
  const links = await em.find(WhatsappQueue, { whatsappId: { $in: whatsappIds } });
  const queues = await em.find(Queue, { id: { $in: [...new Set(links.map((l) => l.queueId))] } }, { orderBy: { orderQueue: 'asc', id: 'asc' } });
  return (whatsappId: number) => queues.filter((q) => links.some((l) => l.whatsappId === whatsappId && l.queueId === q.id));
};

export const presentWithQueues = async (em: EntityManager, w: Whatsapp) => presentWhatsapp(w, (await queuesOf(em, [w.id]))(w.id));

export const findConnection = async (em: EntityManager, id: number) => {
  const connection = await em.findOne(Whatsapp, id);
  if (!connection) throw new AppError('ERR_NO_WAPP_FOUND');
  return connection;
};

export const listConnections = async (ctx: ServiceContext, companyId = ctx.actor.companyId) => {
  const em = emForCompany(ctx, companyId);
  const connections = await em.find(Whatsapp, { companyId }, { orderBy: { name: 'asc' } });
  const queuesFor = await queuesOf(em, connections.map((c) => c.id));
  return connections.map((c) => forViewer(ctx, presentWhatsapp(c, queuesFor(c.id))));
};

export const getConnection = async (ctx: ServiceContext, id: number) =>
  forViewer(ctx, await presentWithQueues(ctx.em, await findConnection(ctx.em, id)));

const assertQueues = async (em: EntityManager, queueIds: number[]) => {
  const unique = [...new Set(queueIds)];
  if (unique.length === 0) return unique;
  const found = await em.count(Queue, { id: { $in: unique } });
  if (found !== unique.length) throw new AppError('ERR_NO_QUEUE_FOUND');
  return unique;
};

/** The welcome and no-match flows must be the company's own. */
const assertFlows = async (em: EntityManager, input: { flowIdWelcome?: number | null; flowIdNotPhrase?: number | null }) => {
  const ids = [...new Set([input.flowIdWelcome, input.flowIdNotPhrase].filter((id): id is number => typeof id === 'number'))];
  if (ids.length > 0 && (await em.count(Flow, { id: { $in: ids } })) !== ids.length) throw new AppError('ERR_NO_FLOW_FOUND');
};

const assertNameFree = (em: EntityManager, name: string, exceptId?: number) =>
  assertUniqueName(em, Whatsapp, name, 'ERR_WAPP_NAME_ALREADY_EXISTS', exceptId);
const nameRace = nameTaken('ERR_WAPP_NAME_ALREADY_EXISTS');

/** With several queues the customer must be greeted with the menu (spec 01 section 5). */
/** The dialog's rule (shared), answered with the spec's own code rather than a validation error. */
const assertGreeting = (queueIds: number[], greeting: string) => {
  if (greetingRequired(queueIds, greeting)) throw new AppError('ERR_WAPP_GREETING_REQUIRED');
};

/**
 * Replaces the connection's queues by difference, in SQL: a link deleted in SQL and created again through
 * the unit of work would still be in the identity map (same key) and never be inserted.
 */
const setQueues = async (em: EntityManager, connection: Whatsapp, queueIds: number[]) => {
  const current = (await em.find(WhatsappQueue, { whatsappId: connection.id })).map((l) => l.queueId);
  const removed = current.filter((id) => !queueIds.includes(id));
  const added = queueIds.filter((id) => !current.includes(id));
  if (removed.length > 0) await em.nativeDelete(WhatsappQueue, { whatsappId: connection.id, queueId: { $in: removed } });
  if (added.length > 0) {
    await em.insertMany(
      WhatsappQueue,
      added.map((queueId) => ({ whatsappId: connection.id, queueId, companyId: connection.companyId })),
    );
  }
};

export const createConnection = async (
  ctx: ServiceContext,
  channels: ChannelManager,
  input: CreateConnectionInput,
  onStartFailure: (err: unknown) => void = () => {},
) => {
  requireAdmin(ctx.actor);
  const em = ctx.em;
  const companyId = ctx.actor.companyId;
  if (!channels.hasProvider(input.provider)) throw new AppError('ERR_WAPP_PROVIDER_DISABLED', { provider: input.provider });
  const queueIds = await assertQueues(em, input.queueIds);
  assertGreeting(queueIds, input.greetingMessage);
  if (input.transferQueueId) await assertQueues(em, [input.transferQueueId]);
  await assertAutomation(em, input);
  await assertFlows(em, input);
  const token = newToken();
  const { queueIds: _q, isDefault, ...fields } = input;
  const connection = await em
    .transactional(async (tx) => {
      // The company row is locked so that concurrent creations count (and pick the default) one after another.
      await tx.findOneOrFail(Company, companyId, { lockMode: LockMode.PESSIMISTIC_WRITE });
      await assertPlanAllows(tx, companyId, 'connections', await tx.count(Whatsapp, {}));
      await assertNameFree(tx, input.name);
      const hasDefault = (await tx.count(Whatsapp, { isDefault: true })) > 0;
      // The first connection is the default; asking for default moves the flag here.
      if (isDefault && hasDefault) await tx.nativeUpdate(Whatsapp, { isDefault: true }, { isDefault: false });
      const created = tx.create(Whatsapp, {
        ...fields,
        companyId,
        isDefault: isDefault || !hasDefault,
        status: 'OPENING',
        tokenHash: hashToken(token),
      });
      await tx.flush();
      await setQueues(tx, created, queueIds);
      return created;
    })
    .catch(nameRace);
  const presented = await presentWithQueues(em, connection);
  ctx.events.emit('connection.changed', { companyId, action: 'create', whatsapp: presented });
  await channels.start(connection).catch(async (err: unknown) => {
    // The connection exists either way: it shows as disconnected and its session can be started again.
    onStartFailure(err);
    const scoped = em.fork();
    const row = await findConnection(scoped, connection.id);
    row.status = 'DISCONNECTED';
    row.qrcode = '';
    await scoped.flush();
    ctx.events.emit('connection.session', { companyId, session: presentSession(row) });
  });
  return { ...(await presentWithQueues(em, await findConnection(em.fork(), connection.id))), token };
};

export const updateConnection = async (ctx: ServiceContext, id: number, input: UpdateConnectionInput) => {
  requireAdmin(ctx.actor);
  const em = ctx.em;
  const connection = await findConnection(em, id);
  if (input.name) await assertNameFree(em, input.name, id);
  const currentQueues = (await em.find(WhatsappQueue, { whatsappId: id })).map((l) => l.queueId);
  const queueIds = input.queueIds ? await assertQueues(em, input.queueIds) : currentQueues;
  assertGreeting(queueIds, input.greetingMessage ?? connection.greetingMessage);
  if (input.transferQueueId) await assertQueues(em, [input.transferQueueId]);
  await assertAutomation(em, input);
  await assertFlows(em, input);
  // The company always keeps one default: the flag moves by setting it elsewhere, not by clearing it.
  if (input.isDefault === false && connection.isDefault) throw new AppError('ERR_NO_OTHER_WHATSAPP');
  const { queueIds: _q, regenerateToken, isDefault, ...fields } = input;
  let token: string | undefined;
  await em.transactional(async (tx) => {
    const row = await findConnection(tx, id);
    if (isDefault && !row.isDefault) {
      await tx.nativeUpdate(Whatsapp, { isDefault: true, id: { $ne: id } }, { isDefault: false });
      row.isDefault = true;
    }
    tx.assign(row, Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)));
    if (regenerateToken) {
      token = newToken();
      row.tokenHash = hashToken(token);
    }
    await tx.flush();
    if (input.queueIds) await setQueues(tx, row, queueIds);
  }).catch(nameRace);
  const presented = await presentWithQueues(em.fork(), await findConnection(em.fork(), id));
  ctx.events.emit('connection.changed', { companyId: ctx.actor.companyId, action: 'update', whatsapp: presented });
  return token ? { ...presented, token } : presented;
};

export const deleteConnection = async (ctx: ServiceContext, channels: ChannelManager, id: number) => {
  requireAdmin(ctx.actor);
  // Checked and removed under the row's lock: a ticket created on (or moved to) this connection meanwhile
  // takes a share lock on the row through its foreign key, so it waits instead of slipping in between the
  // check and the removal; the check then counts it. The phone is logged out only once the row is gone.
  const { connection, newDefaultId, ranBy } = await ctx.em.transactional(async (tx) => {
    const row = await tx.findOne(Whatsapp, id, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!row) throw new AppError('ERR_NO_WAPP_FOUND');
    // Conversations in progress would be left unable to answer.
    const active = await tx.count(Ticket, { whatsappId: id, status: { $in: ['open', 'pending'] } });
    if (active > 0) throw new AppError('ERR_WAPP_HAS_OPEN_TICKETS', { tickets: active });
    const next = row.isDefault ? await tx.findOne(Whatsapp, { id: { $ne: id } }, { orderBy: { id: 'asc' } }) : null;
    if (next) next.isDefault = true;
    // Users whose default connection this was have none now (the column has no foreign key).
    await tx.nativeUpdate(User, { whatsappId: id }, { whatsappId: null });
    const ref = { id: row.id, companyId: row.companyId, provider: row.provider };
    // Its lease goes with the row: who runs its session is read first, to have the phone logged out there.
    const ranBy = await channels.whereRuns(id);
    await tx.remove(row).flush();
    return { connection: ref, newDefaultId: next?.id ?? null, ranBy };
  });
  await channels.logout(connection, { ranBy });
  ctx.events.emit('connection.deleted', { companyId: ctx.actor.companyId, whatsappId: id });
  // Lists show the default flag: the connection that took it is announced too.
  if (newDefaultId !== null) {
    const fresh = ctx.em.fork();
    const presented = await presentWithQueues(fresh, await findConnection(fresh, newDefaultId));
    ctx.events.emit('connection.changed', { companyId: ctx.actor.companyId, action: 'update', whatsapp: presented });
  }
};

/** An admin asking to (re)start a session begins a new attempt: its QR codes are counted from zero. */
const countAttemptsAfresh = async (em: EntityManager, connection: Whatsapp) => {
  connection.retries = 0;
  await em.flush();
};

/** POST /whatsappsession/{id}: (re)connect with the stored credentials (in the server process that runs it). */
export const startSession = async (ctx: ServiceContext, channels: ChannelManager, id: number) => {
  requireAdmin(ctx.actor);
  const connection = await findConnection(ctx.em, id);
  await countAttemptsAfresh(ctx.em, connection);
  await channels.restart(connection);
  return { message: 'Starting session.' };
};

/**
 * POST /whatsappsession/{id}/pairing-code: the code to type on the phone instead of scanning the QR
 * code (the session must be showing one). Pairing then goes on as after a scan.
 */
export const requestPairingCode = async (ctx: ServiceContext, channels: ChannelManager, id: number, number: string) => {
  requireAdmin(ctx.actor);
  const connection = await findConnection(ctx.em, id);
  const session = await channels.reach(connection);
  if (!session || connection.status !== 'qrcode') throw new AppError('ERR_WAPP_NOT_INITIALIZED');
  return { code: await session.requestPairingCode(number) };
};

/** PUT /whatsappsession/{id}: forget the credentials and show a new QR code. */
export const restartSession = async (ctx: ServiceContext, channels: ChannelManager, id: number) => {
  requireAdmin(ctx.actor);
  const connection = await findConnection(ctx.em, id);
  await countAttemptsAfresh(ctx.em, connection);
  await channels.restartFresh(connection);
  return { message: 'Starting session.' };
};

/** DELETE /whatsappsession/{id}: log the phone out. */
export const logoutSession = async (ctx: ServiceContext, channels: ChannelManager, id: number) => {
  requireAdmin(ctx.actor);
  const connection = await findConnection(ctx.em, id);
  await channels.logout(connection);
  connection.status = 'DISCONNECTED';
  connection.qrcode = '';
  connection.number = '';
  await ctx.em.flush();
  ctx.events.emit('connection.session', { companyId: connection.companyId, session: presentSession(connection) });
  return { message: 'Session disconnected.' };
};
