import type { EntityManager } from '@mikro-orm/postgresql';
import { Company } from '../companies/company.entity.js';
import { Whatsapp } from '../connections/whatsapp.entity.js';
import { sendText, type ConversationDeps } from '../outbox/index.js';
import { Ticket, TicketTracking, UserRating } from '../tickets/ticket.entity.js';
import { ratingRetry } from './ticket-texts.js';

/** A rating request is answered within this time, or dropped. */
export const RATING_TIMEOUT_HOURS = 24;

/** The contact's ticket on this connection waiting for a rating, if any. */
export const findTicketAwaitingRating = (em: EntityManager, contactId: number, whatsappId: number) =>
  em.findOne(
    Ticket,
    {
      contactId,
      whatsappId,
      status: 'closed',
      awaitingRatingSince: { $gt: new Date(Date.now() - RATING_TIMEOUT_HOURS * 3600_000) },
    },
    { orderBy: { id: 'desc' } },
  );

/** 1, 2 or 3 alone or inside a short reply ("3", "nota 3!", "2 - satisfeito"). */
export const parseRating = (text: string): number | null => {
  const trimmed = text.trim();
  if (trimmed.length > 40) return null;
  const digits = [...trimmed.matchAll(/(?<!\d)([1-3])(?!\d)/g)].map((m) => Number(m[1]));
  return new Set(digits).size === 1 ? digits[0] : null;
};

/**
 * The customer's answer to a rating request: a valid rate is stored and the completion message sent;
 * the first invalid answer gets one more prompt; the second ends the request unrated.
 */
export const handleRatingReply = async (
  deps: ConversationDeps,
  em: EntityManager,
  ticket: Ticket,
  text: string,
): Promise<'rated' | 'retry' | 'unrated'> => {
  const rate = parseRating(text);
  const connection = ticket.whatsappId ? await em.findOne(Whatsapp, ticket.whatsappId) : null;
  const tracking = await em.findOne(TicketTracking, { ticketId: ticket.id }, { orderBy: { id: 'desc' } });
  if (rate === null && ticket.ratingAttempts === 0) {
    ticket.ratingAttempts = 1;
    await em.flush();
    const company = await em.findOneOrFail(Company, ticket.companyId);
    await sendText(deps, em, ticket, { body: ratingRetry(company.language), isSystem: true });
    return 'retry';
  }
  ticket.awaitingRatingSince = null;
  if (rate !== null) {
    em.create(UserRating, { companyId: ticket.companyId, ticketId: ticket.id, userId: ticket.userId, rate });
    if (tracking) tracking.rated = true;
  }
  await em.flush();
  if (connection?.complationMessage.trim()) {
    await sendText(deps, em, ticket, { body: connection.complationMessage, isSystem: true });
  }
  return rate !== null ? 'rated' : 'unrated';
};
