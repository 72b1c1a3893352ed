import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import { API_SENT_TEXT, type ApiMessageState, type ApiMessageStatus, type ApiSendResponse } from '@atrium/shared';
import type { ChannelManager } from '../../channels/manager.js';
import { AppError } from '../../errors.js';
import type { Logger } from '../../logger.js';
import type { StoredMedia } from '../../media/storage.js';
import { assertCompanyUsable, takeRateLimit, type RateLimitState } from '../auth/index.js';
import { Company } from '../companies/company.entity.js';
import { connectionOfToken, hashToken } from '../connections/index.js';
import type { Whatsapp } from '../connections/whatsapp.entity.js';
import { upsertChannelContact } from '../contacts/index.js';
import { Message } from '../messages/message.entity.js';
import { OutboundMessage } from '../outbox/outbound-message.entity.js';
import { queueOnTicket, renderForTicket, type ConversationDeps, type OutboundFile } from '../outbox/index.js';
import { assertPlanFeature } from '../plans/index.js';
import { findActiveTicket, placementOf, type TicketActor } from '../tickets/index.js';
import type { Ticket } from '../tickets/ticket.entity.js';
import { announce, closeTicket, startTicket, transitionDeps } from '../transitions/index.js';
import { forCompany } from '../../db/tenant.js';
import { claimKey, fingerprintOf, holdClaim, releaseClaim, settle, type RequestScope } from './idempotency.js';

/** What the messages API needs of the app. */
export interface MessagesApiDeps extends ConversationDeps {
  logger: Logger;
  channels: ChannelManager;
}

/** Who calls: a connection's token, which decides the connection and the company. */
export interface ApiCaller extends RequestScope {
  /** Bound to the token's company (db/tenant.ts). */
  em: EntityManager;
  connection: Whatsapp;
  /** Ticket transitions name the token (its connection) as the actor. */
  actor: TicketActor;
}

export type ApiCall = 'send' | 'status';

/**
 * The bearer token of a connection (spec 04 section 14): 401 without one or with one no connection has
 * (a rotated token is no one's any more); a company that is switched off or overdue is refused as its
 * users are; the plan must include the external API (flags are enforced here, spec 04 section 0); and each
 * token has its calls per minute (429 with Retry-After beyond).
 */
export const authenticateApiToken = async (
  systemEm: EntityManager,
  limits: Record<ApiCall, number>,
  token: string | undefined,
  call: ApiCall,
): Promise<{ caller: ApiCaller; rate: RateLimitState }> => {
  if (!token) throw new AppError('ERR_INVALID_API_TOKEN');
  const connection = await connectionOfToken(systemEm, token);
  if (!connection) throw new AppError('ERR_INVALID_API_TOKEN');
  const em = forCompany(systemEm, connection.companyId);
  const company = await em.findOneOrFail(Company, connection.companyId);
  assertCompanyUsable(company, { super: false });
  await assertPlanFeature(em, company.id, 'useExternalApi');
  // Per connection, so a rotated token does not start a fresh window.
  const rate = await takeRateLimit(em, `api-${call}:${connection.id}`, limits[call], 60);
  return {
    caller: {
      em,
      connection,
      companyId: connection.companyId,
      whatsappId: connection.id,
      tokenHash: hashToken(token),
      actor: { kind: 'api', tokenId: connection.id },
    },
    rate,
  };
};

/**
 * The number as WhatsApp knows it, asked of the token's own connection (spec 04 section 14's note): a
 * connection without a live session cannot tell, so the send is refused with ERR_WAPP_NOT_CONNECTED rather
 * than queued for a number nobody checked.
 */
const checkNumber = async (channels: ChannelManager, connection: Whatsapp, number: string): Promise<string> => {
  // The session lives in the process holding the connection's lease. When session commands are forwarded
  // to that owner (several server processes), this lookup is where the forward plugs in: ask the owner's
  // session for checkNumber instead of refusing when this process does not run it.
  const session = connection.status === 'CONNECTED' ? channels.findOfCompany(connection.id, connection.companyId) : undefined;
  if (!session) throw new AppError('ERR_WAPP_NOT_CONNECTED', { whatsappId: connection.id, status: connection.status });
  let checked: string | null;
  try {
    checked = await session.checkNumber(number);
  } catch (err) {
    if (err instanceof AppError && err.code === 'ERR_WAPP_NOT_INITIALIZED') {
      throw new AppError('ERR_WAPP_NOT_CONNECTED', { whatsappId: connection.id, status: connection.status });
    }
    if (err instanceof AppError) throw err;
    throw new AppError('ERR_WAPP_CHECK_CONTACT');
  }
  if (!checked) throw new AppError('ERR_WAPP_INVALID_CONTACT');
  return checked.replace(/\D/g, '');
};

/**
 * The contact's open or pending ticket on the token's connection, or a new pending one the API starts
 * (spec 04 section 14: found or created). A ticket opened meanwhile by the customer's message or another
 * send meets the unique index inside a savepoint, and that one is used.
 */
const ticketFor = async (tx: EntityManager, actor: TicketActor, contactId: number, whatsappId: number): Promise<{ ticket: Ticket; created: boolean }> => {
  const existing = await findActiveTicket(tx, contactId, whatsappId);
  if (existing) return { ticket: existing, created: false };
  try {
    // A savepoint: the transaction goes on after a unique violation here.
    const ticket = await tx.transactional((sp) => startTicket(sp, actor, { contactId, whatsappId, isGroup: false, queueId: null, userId: null }));
    return { ticket, created: true };
  } catch (err) {
    if (!(err instanceof UniqueConstraintViolationException)) throw err;
  }
  const raced = await findActiveTicket(tx, contactId, whatsappId);
  if (!raced) throw new AppError('ERR_CREATING_TICKET');
  return { ticket: raced, created: false };
};

export interface ApiSendInput {
  number: string;
  body: string;
  closeTicket: boolean;
  files: OutboundFile[];
}

export interface ApiSendResult {
  statusCode: number;
  body: ApiSendResponse;
  /** An answer given before, to a request with the same Idempotency-Key. */
  replayed: boolean;
}

const mediaTypeOf = (mimetype: string) => {
  const family = mimetype.split('/')[0];
  return family === 'image' || family === 'audio' || family === 'video' ? family : 'application';
};

/**
 * POST /api/messages/send: checks the number through the token's connection, finds or creates the contact
 * (named by its number) and its ticket on that connection, queues the text (or each file, captioned with
 * the body) through the outbox, and closes the ticket when asked. One transaction: the messages, the
 * ticket and the answer kept for the Idempotency-Key are all there or none is.
 */
export const sendThroughApi = async (deps: MessagesApiDeps, caller: ApiCaller, input: ApiSendInput, idempotencyKey?: string): Promise<ApiSendResult> => {
  const { em } = caller;
  const fingerprint = fingerprintOf({
    number: input.number,
    body: input.body,
    closeTicket: input.closeTicket,
    files: input.files.map((f) => ({ name: f.filename, mimetype: f.mimetype, size: f.data.length, sha256: fingerprintOf(f.data.toString('base64')) })),
  });
  const claim = idempotencyKey ? await claimKey(em, caller, idempotencyKey, fingerprint) : null;
  if (claim?.kind === 'replay') return { statusCode: claim.statusCode, body: claim.response as ApiSendResponse, replayed: true };

  const stored: StoredMedia[] = [];
  try {
    const number = await checkNumber(deps.channels, caller.connection, input.number);
    // Files are written before the transaction (no disk I/O inside it) and removed if it fails.
    for (const file of input.files) stored.push(await deps.media.save(caller.companyId, { data: file.data, mimetype: file.mimetype, filename: file.filename }));

    const body = await em.transactional(async (tx) => {
      const requestId = await holdClaim(tx, caller, claim, fingerprint);
      const contact = await upsertChannelContact(tx, { number, lid: null, name: number, isGroup: false });
      const { ticket, created } = await ticketFor(tx, caller.actor, contact.id, caller.connection.id);
      if (created) await announce(deps, tx, ticket, undefined, caller.actor);
      const text = await renderForTicket(tx, ticket, input.body);
      const queued: { id: number; wid: string; type: string }[] = [];
      if (stored.length === 0) {
        const message = await queueOnTicket(deps, tx, ticket, { body: text });
        queued.push({ id: message.id, wid: message.wid ?? '', type: 'chat' });
      }
      for (const file of stored) {
        const message = await queueOnTicket(deps, tx, ticket, {
          body: text,
          media: { fileName: file.fileName, mediaName: file.mediaName, mimetype: file.mimetype },
        });
        queued.push({ id: message.id, wid: message.wid ?? '', type: mediaTypeOf(file.mimetype) });
      }
      if (input.closeTicket) {
        const before = placementOf(ticket);
        await closeTicket(transitionDeps(deps), tx, ticket, caller.actor);
        await announce(deps, tx, ticket, before, caller.actor);
      }
      const answer: ApiSendResponse = {
        mensagem: API_SENT_TEXT,
        messageId: queued[0].id,
        ticketId: ticket.id,
        contactId: contact.id,
        number,
        status: 'queued',
        messages: queued,
        ticketClosed: input.closeTicket,
      };
      await settle(tx, requestId, 200, answer);
      return answer;
    });
    return { statusCode: 200, body, replayed: false };
  } catch (err) {
    for (const file of stored) await deps.media.remove(caller.companyId, file.fileName).catch(() => undefined);
    // Nothing was queued: a retry with the same key tries again.
    if (claim) await releaseClaim(em.fork(), caller, claim).catch((e: unknown) => deps.logger.warn({ err: e }, 'idempotency claim not released'));
    throw err;
  }
};

/** The outbox row's state, moved on by the receipts the message's ack records (spec scale 2 received, 3 read). */
const stateOf = (outbox: OutboundMessage, message: Message): ApiMessageState => {
  if (outbox.status !== 'sent') return outbox.status;
  if (message.ack >= 3) return 'read';
  if (message.ack === 2) return 'delivered';
  return 'sent';
};

/**
 * GET /api/messages/{id}: a message its token's connection sent (another connection's, another company's
 * or a received one is not found), with the outbox's state and the receipts.
 */
export const messageStatus = async (caller: ApiCaller, id: number): Promise<ApiMessageStatus> => {
  const { em } = caller;
  const outbox = await em.findOne(OutboundMessage, { messageId: id, whatsappId: caller.connection.id }, { orderBy: { id: 'desc' } });
  const message = outbox ? await em.findOne(Message, id) : null;
  if (!outbox || !message) throw new AppError('ERR_NO_MESSAGE_FOUND');
  const status = stateOf(outbox, message);
  return {
    id: message.id,
    wid: outbox.wid,
    ticketId: message.ticketId,
    contactId: outbox.contactId,
    number: outbox.toNumber,
    status,
    ack: message.ack,
    error: status === 'failed' ? (outbox.lastError ?? message.sendError ?? null) : null,
    createdAt: outbox.createdAt.toISOString(),
    sentAt: outbox.sentAt ? outbox.sentAt.toISOString() : null,
  };
};
