import { UniqueConstraintViolationException } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  CONTACT_LIST_ITEMS_PAGE_SIZE,
  CONTACT_LISTS_PAGE_SIZE,
  type ContactListImportView,
  type ContactListItemView,
  type ContactListView,
  type CreateContactListInput,
  type CreateContactListItemInput,
  type ListContactListItemsQuery,
  type ListQuery,
  type UpdateContactListInput,
  type UpdateContactListItemInput,
} from '@atrium/shared';
import { pageOf, type ServiceContext } from '../../context.js';
import { escapeLike, intArray } from '../../db/sql.js';
import { requireTenant } from '../../db/tenant.js';
import { AppError } from '../../errors.js';
import { ContactList, ContactListImport, ContactListItem } from './contact-list.entity.js';

/**
 * Contact lists and their items (spec 02 sections 2-7, spec 04 section 3 with its note). Any user of the
 * company may use them (spec 02 section 6); the plan's campaigns flag gates the routes. A number is in a
 * list once; a new or changed number is checked on WhatsApp by the list's checker (contact-lists.check.ts),
 * never in the request.
 */

export const presentImport = (row: ContactListImport): ContactListImportView<Date> => ({
  id: row.id,
  contactListId: row.contactListId,
  status: row.status,
  fileName: row.fileName,
  total: row.total,
  processed: row.processed,
  created: row.created,
  duplicates: row.duplicates,
  invalid: row.invalid,
  error: row.error,
  createdAt: row.createdAt,
  finishedAt: row.finishedAt,
});

export const presentItem = (item: ContactListItem): ContactListItemView<Date> => ({
  id: item.id,
  name: item.name,
  number: item.number,
  email: item.email,
  isWhatsappValid: item.isWhatsappValid,
  checkedAt: item.checkedAt,
  companyId: item.companyId,
  contactListId: item.contactListId,
  createdAt: item.createdAt,
  updatedAt: item.updatedAt,
});

interface ListCounts {
  total: number;
  valid: number;
  invalid: number;
  unchecked: number;
}

/** How many items each list has, and how many are checked valid, invalid or not yet. */
export const listCounts = async (em: EntityManager, listIds: number[]): Promise<Map<number, ListCounts>> => {
  if (listIds.length === 0) return new Map();
  const rows = await em.execute<{ id: number; total: number; valid: number; invalid: number; unchecked: number }[]>(
    `select contact_list_id as id, count(*)::int as total,
            count(*) filter (where checked_at is not null and is_whatsapp_valid)::int as valid,
            count(*) filter (where checked_at is not null and not is_whatsapp_valid)::int as invalid,
            count(*) filter (where checked_at is null)::int as unchecked
       from contact_list_items where company_id = ? and contact_list_id = any(?::int[]) group by contact_list_id`,
    [requireTenant(em), intArray(listIds)],
  );
  return new Map(rows.map((r) => [r.id, r]));
};

const lastImports = async (em: EntityManager, listIds: number[]) => {
  if (listIds.length === 0) return new Map<number, ContactListImport>();
  const rows = await em.execute<{ id: number }[]>(
    `select distinct on (contact_list_id) id from contact_list_imports
      where company_id = ? and contact_list_id = any(?::int[]) order by contact_list_id, id desc`,
    [requireTenant(em), intArray(listIds)],
  );
  const imports = rows.length ? await em.find(ContactListImport, { id: { $in: rows.map((r) => r.id) } }, { refresh: true }) : [];
  return new Map(imports.map((i) => [i.contactListId, i]));
};

export const presentLists = async (em: EntityManager, lists: ContactList[]): Promise<ContactListView<Date>[]> => {
  const ids = lists.map((l) => l.id);
  const [counts, imports] = await Promise.all([listCounts(em, ids), lastImports(em, ids)]);
  return lists.map((list) => {
    const c = counts.get(list.id) ?? { total: 0, valid: 0, invalid: 0, unchecked: 0 };
    const last = imports.get(list.id);
    return {
      id: list.id,
      name: list.name,
      companyId: list.companyId,
      contactsCount: c.total,
      validCount: c.valid,
      invalidCount: c.invalid,
      uncheckedCount: c.unchecked,
      checkState: list.checkState,
      campaignId: list.campaignId,
      lastImport: last ? presentImport(last) : null,
      createdAt: list.createdAt,
      updatedAt: list.updatedAt,
    };
  });
};

export const presentList = async (em: EntityManager, list: ContactList) => (await presentLists(em, [list]))[0];

export const findList = async (em: EntityManager, id: number) => {
  const list = await em.findOne(ContactList, id, { refresh: true });
  if (!list) throw new AppError('ERR_NO_CONTACT_LIST_FOUND');
  return list;
};

const findItem = async (em: EntityManager, id: number) => {
  const item = await em.findOne(ContactListItem, id);
  if (!item) throw new AppError('ERR_NO_CONTACT_LIST_ITEM_FOUND');
  return item;
};

/** Announces the list with its counts as they are now (after an item change, an import, a check). */
export const announceList = async (ctx: Pick<ServiceContext, 'em' | 'events'>, id: number, action: 'create' | 'update' = 'update') => {
  const list = await ctx.em.fork().findOne(ContactList, id);
  if (!list) return null;
  const record = await presentList(ctx.em.fork(), list);
  ctx.events.emit('contactlist.changed', { companyId: list.companyId, action, record });
  return record;
};

/** GET /contact-lists/: 20 per page by name, with their counts. */
export const listContactLists = async (ctx: ServiceContext, query: ListQuery) => {
  const where = query.searchParam ? { name: { $ilike: `%${escapeLike(query.searchParam)}%` } } : {};
  const [lists, count] = await ctx.em.findAndCount(ContactList, where, {
    orderBy: { name: 'asc', id: 'asc' },
    limit: CONTACT_LISTS_PAGE_SIZE,
    offset: (query.pageNumber - 1) * CONTACT_LISTS_PAGE_SIZE,
  });
  const page = pageOf(await presentLists(ctx.em, lists), count, query.pageNumber, CONTACT_LISTS_PAGE_SIZE);
  return { records: page.rows, count: page.count, hasMore: page.hasMore };
};

/** GET /contact-lists/list: every list of the company (the campaign dialog's choice), lists made from a tag left out. */
export const listAllContactLists = async (ctx: ServiceContext) => {
  const lists = await ctx.em.find(ContactList, { campaignId: null }, { orderBy: { name: 'asc', id: 'asc' } });
  return presentLists(ctx.em, lists);
};

export const getContactList = async (ctx: ServiceContext, id: number) => presentList(ctx.em, await findList(ctx.em, id));

export const createContactList = async (ctx: ServiceContext, input: CreateContactListInput) => {
  const list = ctx.em.create(ContactList, { companyId: requireTenant(ctx.em), name: input.name });
  await ctx.em.flush();
  const record = await presentList(ctx.em, list);
  ctx.events.emit('contactlist.changed', { companyId: list.companyId, action: 'create', record });
  return record;
};

export const updateContactList = async (ctx: ServiceContext, id: number, input: UpdateContactListInput) => {
  const list = await findList(ctx.em, id);
  list.name = input.name;
  await ctx.em.flush();
  const record = await presentList(ctx.em, list);
  ctx.events.emit('contactlist.changed', { companyId: list.companyId, action: 'update', record });
  return record;
};

/**
 * DELETE /contact-lists/{id}: refused while a scheduled or running campaign sends to it (it would have no
 * one left to send to); a finished or paused campaign keeps its rows, which name and number each contact.
 */
export const deleteContactList = async (ctx: ServiceContext, id: number) => {
  const list = await findList(ctx.em, id);
  const [busy] = await ctx.em.execute<{ n: number }[]>(
    `select count(*)::int as n from campaigns where company_id = ? and contact_list_id = ? and status in ('PROGRAMADA', 'EM_ANDAMENTO')`,
    [list.companyId, list.id],
  );
  if (busy.n > 0) throw new AppError('ERR_CONTACT_LIST_IN_USE');
  await ctx.em.remove(list).flush();
  ctx.events.emit('contactlist.deleted', { companyId: list.companyId, id });
};

/** GET /contact-list-items: a list's items, 20 per page by name, searching name, number or email. */
export const listContactListItems = async (ctx: ServiceContext, query: ListContactListItemsQuery) => {
  await findList(ctx.em, query.contactListId);
  const term = query.searchParam ? `%${escapeLike(query.searchParam)}%` : null;
  const digits = query.searchParam.replace(/\D/g, '');
  const or: object[] = term ? [{ name: { $ilike: term } }, { email: { $ilike: term } }] : [];
  if (term && digits) or.push({ number: { $like: `%${digits}%` } });
  const [items, count] = await ctx.em.findAndCount(
    ContactListItem,
    { contactListId: query.contactListId, ...(or.length ? { $or: or } : {}) },
    { orderBy: { name: 'asc', id: 'asc' }, limit: CONTACT_LIST_ITEMS_PAGE_SIZE, offset: (query.pageNumber - 1) * CONTACT_LIST_ITEMS_PAGE_SIZE },
  );
  const page = pageOf(items.map(presentItem), count, query.pageNumber, CONTACT_LIST_ITEMS_PAGE_SIZE);
  return { contacts: page.rows, count: page.count, hasMore: page.hasMore };
};

export const getContactListItem = async (ctx: ServiceContext, id: number) => presentItem(await findItem(ctx.em, id));

const duplicated = (err: unknown): never => {
  if (err instanceof UniqueConstraintViolationException) throw new AppError('ERR_CONTACT_LIST_ITEM_DUPLICATED');
  throw err;
};

/** What a changed number asks of the list's checker. */
export interface ItemHooks {
  requestCheck: (companyId: number, contactListId: number) => Promise<void>;
}

/** POST /contact-list-items: a number is in a list once; the new number is checked on WhatsApp shortly. */
export const createContactListItem = async (ctx: ServiceContext, hooks: ItemHooks, input: CreateContactListItemInput) => {
  const list = await findList(ctx.em, input.contactListId);
  if (await ctx.em.findOne(ContactListItem, { contactListId: list.id, number: input.number }, { fields: ['id'] })) {
    throw new AppError('ERR_CONTACT_LIST_ITEM_DUPLICATED');
  }
  const item = ctx.em.create(ContactListItem, {
    companyId: list.companyId,
    contactListId: list.id,
    name: input.name,
    number: input.number,
    email: input.email,
  });
  await ctx.em.flush().catch(duplicated);
  const record = presentItem(item);
  ctx.events.emit('contactlistitem.changed', { companyId: list.companyId, action: 'create', record });
  await hooks.requestCheck(list.companyId, list.id);
  await announceList(ctx, list.id);
  return record;
};

/** PUT /contact-list-items/{id}: a changed number is unchecked again. */
export const updateContactListItem = async (ctx: ServiceContext, hooks: ItemHooks, id: number, input: UpdateContactListItemInput) => {
  const item = await findItem(ctx.em, id);
  const numberChanged = input.number !== undefined && input.number !== item.number;
  if (numberChanged && (await ctx.em.findOne(ContactListItem, { contactListId: item.contactListId, number: input.number }, { fields: ['id'] }))) {
    throw new AppError('ERR_CONTACT_LIST_ITEM_DUPLICATED');
  }
  if (input.name !== undefined) item.name = input.name;
  if (input.email !== undefined) item.email = input.email;
  if (numberChanged) {
    item.number = input.number!;
    item.isWhatsappValid = false;
    item.checkedAt = null;
  }
  await ctx.em.flush().catch(duplicated);
  const record = presentItem(item);
  ctx.events.emit('contactlistitem.changed', { companyId: item.companyId, action: 'update', record });
  if (numberChanged) {
    await hooks.requestCheck(item.companyId, item.contactListId);
    await announceList(ctx, item.contactListId);
  }
  return record;
};

export const deleteContactListItem = async (ctx: ServiceContext, id: number) => {
  const item = await findItem(ctx.em, id);
  const { companyId, contactListId } = item;
  await ctx.em.remove(item).flush();
  ctx.events.emit('contactlistitem.deleted', { companyId, id, contactListId });
  await announceList(ctx, contactListId);
};
