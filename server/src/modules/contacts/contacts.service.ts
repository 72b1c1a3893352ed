import { escapeLike } from '../../db/sql.js';
import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  PAGE_SIZE,
  type ContactExtraInfoInput,
  type CreateContactInput,
  type ListContactsQuery,
  type UpdateContactInput,
} from '@atrium/shared';
import type { ChannelManager } from '../../channels/manager.js';
import { emForCompany, requireAdmin, type ServiceContext } from '../../context.js';
import { requireTenant } from '../../db/tenant.js';
import { AppError } from '../../errors.js';
import type { MediaStore } from '../../media/storage.js';
import { Company } from '../companies/company.entity.js';
import { Whatsapp } from '../connections/whatsapp.entity.js';
import { Message } from '../messages/message.entity.js';
import { Ticket } from '../tickets/ticket.entity.js';
import { presentContact } from './contact.presenter.js';
import { placementOf } from '../tickets/index.js';
import { Contact, ContactCustomField } from './contact.entity.js';

export interface ContactDeps {
  channels: ChannelManager;
  media: MediaStore;
}

const presentExtraInfo = (fields: ContactCustomField[]) =>
  fields.map((f) => ({ id: f.id, name: f.name, value: f.value }));

const findContact = async (em: EntityManager, id: number) => {
  const contact = await em.findOne(Contact, id);
  if (!contact) throw new AppError('ERR_NO_CONTACT_FOUND');
  return contact;
};

const extraInfoOf = (em: EntityManager, contactId: number) =>
  em.find(ContactCustomField, { contactId }, { orderBy: { id: 'asc' } });

/** The partial unique index on (company, number) caught what the check below could not see: a concurrent twin. */
const duplicateRace = (err: unknown): never => {
  if (err instanceof UniqueConstraintViolationException) throw new AppError('ERR_DUPLICATED_CONTACT');
  throw err;
};

const assertNumberFree = async (em: EntityManager, number: string, exceptId?: number) => {
  const other = await em.findOne(Contact, { number }, { fields: ['id'] });
  if (other && other.id !== exceptId) throw new AppError('ERR_DUPLICATED_CONTACT');
};

/**
 * The number as WhatsApp knows it (spec 03 section 9 and its note): when the company's default connection
 * has a live session, the channel's canonical digits (fixing Brazilian ninth-digit variants), and
 * ERR_WAPP_INVALID_CONTACT for a number not on WhatsApp. Without a live session the digits are kept as typed.
 */
const canonicalNumber = async (em: EntityManager, channels: ChannelManager, digits: string): Promise<string> => {
  const connection = await em.findOne(Whatsapp, { isDefault: true });
  // The session may run in another server process: it checks the number.
  const session = connection && connection.status === 'CONNECTED' ? await channels.reach(connection) : undefined;
  if (!session) return digits;
  let checked: string | null;
  try {
    checked = await session.checkNumber(digits);
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw new AppError('ERR_WAPP_CHECK_CONTACT');
  }
  if (!checked) throw new AppError('ERR_WAPP_INVALID_CONTACT');
  return checked.replace(/\D/g, '');
};


/**
 * GET /contacts: 30 per page by name. The search matches name, email or number (the number by its
 * digits, so a masked search still finds it); `date`, `dateStart` and `dateEnd` filter the creation day
 * in the company's time zone.
 */
export const listContacts = async (ctx: ServiceContext, query: ListContactsQuery) => {
  const companyId = requireTenant(ctx.em);
  const company = await ctx.em.findOneOrFail(Company, companyId);
  const where: string[] = ['c.company_id = ?'];
  const params: unknown[] = [companyId];
  if (query.searchParam) {
    const text = `%${escapeLike(query.searchParam.toLowerCase())}%`;
    // A number search may carry a mask ("(11) 98765-4321"); digits inside a name are not a number search.
    const looksLikeNumber = /^[\d\s()+.-]+$/.test(query.searchParam);
    const digits = looksLikeNumber ? query.searchParam.replace(/\D/g, '') : '';
    const or = ['lower(c.name) like ?', 'lower(c.email) like ?'];
    params.push(text, text);
    if (digits) {
      or.push('c.number like ?');
      params.push(`%${digits}%`);
    }
    where.push(`(${or.join(' or ')})`);
  }
  const day = `(c.created_at at time zone ?)::date`;
  if (query.date) {
    where.push(`${day} = ?::date`);
    params.push(company.timezone, query.date);
  }
  if (query.dateStart) {
    where.push(`${day} >= ?::date`);
    params.push(company.timezone, query.dateStart);
  }
  if (query.dateEnd) {
    where.push(`${day} <= ?::date`);
    params.push(company.timezone, query.dateEnd);
  }
  const size = PAGE_SIZE.contacts;
  const sqlWhere = where.join(' and ');
  const [rows, countRows] = await Promise.all([
    ctx.em.execute<{ id: number }[]>(
      `select c.id from contacts c where ${sqlWhere} order by c.name asc, c.id asc limit ? offset ?`,
      [...params, size, (query.pageNumber - 1) * size],
    ),
    ctx.em.execute<{ count: number }[]>(`select count(*)::int as count from contacts c where ${sqlWhere}`, params),
  ]);
  const ids = rows.map((r) => r.id);
  const found = ids.length > 0 ? await ctx.em.find(Contact, { id: { $in: ids } }) : [];
  const byId = new Map(found.map((c) => [c.id, c]));
  const contacts = ids.flatMap((id) => (byId.has(id) ? [presentContact(byId.get(id)!)] : []));
  const count = Number(countRows[0]?.count ?? 0);
  return { contacts, count, hasMore: count > query.pageNumber * size };
};

/** GET /contacts/list: every contact of the company (the caller's; another one for super users only), minimal fields. */
export const listAllContacts = async (ctx: ServiceContext, companyId = ctx.actor.companyId) => {
  const contacts = await emForCompany(ctx, companyId).find(
    Contact,
    { companyId },
    { orderBy: { name: 'asc', id: 'asc' }, fields: ['id', 'name', 'number', 'lid', 'email', 'isGroup'] },
  );
  return contacts.map((c) => ({ id: c.id, name: c.name, number: c.number ?? c.lid ?? '', email: c.email, isGroup: c.isGroup }));
};

export const getContact = async (ctx: ServiceContext, id: number) => {
  const contact = await findContact(ctx.em, id);
  return { ...presentContact(contact), extraInfo: presentExtraInfo(await extraInfoOf(ctx.em, id)) };
};

export const createContact = async (ctx: ServiceContext, deps: ContactDeps, input: CreateContactInput) => {
  const number = await canonicalNumber(ctx.em, deps.channels, input.number);
  await assertNumberFree(ctx.em, number);
  const companyId = requireTenant(ctx.em);
  // The contact and its fields are created together or not at all.
  const contact = await ctx.em
    .transactional(async (tx) => {
      const created = tx.create(Contact, { companyId, name: input.name, number, email: input.email });
      await tx.flush();
      for (const item of dedupeByName(input.extraInfo)) {
        tx.create(ContactCustomField, { companyId, contactId: created.id, name: item.name, value: item.value });
      }
      return created;
    })
    .catch(duplicateRace);
  const presented = { ...presentContact(contact), extraInfo: presentExtraInfo(await extraInfoOf(ctx.em, contact.id)) };
  ctx.events.emit('contact.changed', { companyId, action: 'create', contact: presented });
  return presented;
};

/** Two items with one name would be one field: the last one sent wins. */
const dedupeByName = (items: ContactExtraInfoInput[]) => [...new Map(items.map((i) => [i.name, i])).values()];

/**
 * extraInfo as sent becomes the contact's list: items matched by id (of this contact) or else by name are
 * updated, the rest are created, and fields not sent are deleted (spec 03 section 9).
 */
const syncExtraInfo = async (em: EntityManager, contact: Contact, items: ContactExtraInfoInput[]) => {
  const existing = await extraInfoOf(em, contact.id);
  const kept = new Set<number>();
  for (const item of dedupeByName(items)) {
    const match =
      existing.find((f) => item.id !== undefined && f.id === item.id && !kept.has(f.id)) ??
      existing.find((f) => f.name === item.name && !kept.has(f.id));
    if (match) {
      match.name = item.name;
      match.value = item.value;
      kept.add(match.id);
    } else {
      em.create(ContactCustomField, { companyId: contact.companyId, contactId: contact.id, name: item.name, value: item.value });
    }
  }
  for (const field of existing) if (!kept.has(field.id)) em.remove(field);
};

export const updateContact = async (ctx: ServiceContext, deps: ContactDeps, id: number, input: UpdateContactInput) => {
  const contact = await findContact(ctx.em, id);
  if (input.number !== undefined && input.number !== contact.number) {
    // A group's id is not a phone number: there is nothing to ask WhatsApp about.
    const number = contact.isGroup ? input.number : await canonicalNumber(ctx.em, deps.channels, input.number);
    if (number !== contact.number) {
      await assertNumberFree(ctx.em, number, contact.id);
      contact.number = number;
    }
  }
  if (input.name !== undefined) contact.name = input.name;
  if (input.email !== undefined) contact.email = input.email;
  if (input.extraInfo !== undefined) await syncExtraInfo(ctx.em, contact, input.extraInfo);
  // One flush, one transaction: the contact and its fields change together or not at all.
  await ctx.em.flush().catch(duplicateRace);
  const presented = { ...presentContact(contact), extraInfo: presentExtraInfo(await extraInfoOf(ctx.em, contact.id)) };
  ctx.events.emit('contact.changed', { companyId: contact.companyId, action: 'update', contact: presented });
  return presented;
};

/**
 * DELETE /contacts/{id}: admins only (rule contacts-page:deleteContact). The database removes the
 * contact's tickets, their messages and notes with it; the lists drop those tickets and their media
 * files are removed.
 */
export const deleteContact = async (ctx: ServiceContext, deps: ContactDeps, id: number) => {
  requireAdmin(ctx.actor);
  const contact = await findContact(ctx.em, id);
  const tickets = await ctx.em.find(Ticket, { contactId: id });
  const media =
    tickets.length > 0
      ? await ctx.em.find(
          Message,
          { ticketId: { $in: tickets.map((t) => t.id) }, mediaUrl: { $ne: null } },
          { fields: ['id', 'mediaUrl'] },
        )
      : [];
  await ctx.em.nativeDelete(Contact, { id: contact.id });
  ctx.em.clear();
  for (const ticket of tickets) {
    ctx.events.emit('ticket.deleted', { companyId: contact.companyId, ticketId: ticket.id, previous: placementOf(ticket) });
  }
  ctx.events.emit('contact.deleted', { companyId: contact.companyId, contactId: contact.id });
  await Promise.all(media.map((m) => deps.media.remove(contact.companyId, m.mediaUrl!).catch(() => undefined)));
};
