import type { EntityManager } from '@mikro-orm/postgresql';
import type { ChannelPeer } from '../../channels/types.js';
import { requireTenant } from '../../db/tenant.js';
import { Contact, ContactCustomField } from './contact.entity.js';

export const digitsOnly = (value: string | null | undefined): string | null => {
  const digits = (value ?? '').replace(/\D/g, '');
  return digits.length > 0 ? digits : null;
};

/**
 * Moves everything of `from` onto `into` and removes `from`: the same person seen first by LID and
 * then by phone number (or the other way round) becomes one contact. An active ticket of each on the
 * same connection is merged into one.
 */
const mergeContacts = async (em: EntityManager, into: Contact, from: Contact) => {
  const companyId = requireTenant(em);
  // Messages of `from`'s active tickets go to `into`'s active ticket on the same connection.
  await em.execute(
    `with pairs as (
       select f.id as from_id, i.id as into_id from tickets f
         join tickets i on i.whatsapp_id = f.whatsapp_id and i.contact_id = ? and i.status in ('open','pending')
        where f.contact_id = ? and f.status in ('open','pending') and f.company_id = ?)
     update messages m set ticket_id = p.into_id from pairs p where m.ticket_id = p.from_id`,
    [into.id, from.id, companyId],
  );
  await em.execute(
    `delete from tickets f using tickets i
      where f.contact_id = ? and f.status in ('open','pending') and f.company_id = ?
        and i.contact_id = ? and i.whatsapp_id = f.whatsapp_id and i.status in ('open','pending')`,
    [from.id, companyId, into.id],
  );
  await em.execute('update tickets set contact_id = ? where contact_id = ? and company_id = ?', [into.id, from.id, companyId]);
  await em.execute('update messages set contact_id = ? where contact_id = ? and company_id = ?', [into.id, from.id, companyId]);
  await em.execute('update ticket_notes set contact_id = ? where contact_id = ? and company_id = ?', [into.id, from.id, companyId]);
  await em.nativeUpdate(ContactCustomField, { contactId: from.id }, { contactId: into.id });
  const lid = into.lid ?? from.lid;
  const number = into.number ?? from.number;
  await em.nativeDelete(Contact, { id: from.id });
  into.lid = lid;
  into.number = number;
  await em.flush();
};

/** A name nobody chose (empty, or the number or LID itself): the phone's name may replace it. */
export const isPlaceholderName = (contact: Pick<Contact, 'name' | 'number' | 'lid'>) =>
  !contact.name.trim() || contact.name === contact.number || contact.name === contact.lid;

/**
 * The contact for a channel identity, created on first sight. Safe under concurrency: the partial unique
 * indexes on (company, number) and (company, lid) let only one insert win; the others read it back.
 */
export const upsertChannelContact = async (
  em: EntityManager,
  peer: ChannelPeer & { profilePicUrl?: string },
): Promise<Contact> => {
  const companyId = requireTenant(em);
  const number = digitsOnly(peer.number);
  const lid = digitsOnly(peer.lid);
  if (!number && !lid) throw new Error('a channel contact needs a number or a LID');

  const find = async () => {
    const or: object[] = [];
    if (number) or.push({ number });
    if (lid) or.push({ lid });
    return em.find(Contact, { $or: or }, { orderBy: { id: 'asc' } });
  };

  let found = await find();
  if (found.length === 0) {
    const rows: Record<string, unknown>[] = await em.execute(
      `insert into contacts (company_id, name, number, lid, email, profile_pic_url, is_group, uuid, created_at, updated_at)
       values (?, ?, ?, ?, '', ?, ?, gen_random_uuid(), now(), now())
       on conflict do nothing returning *`,
      [companyId, (peer.name ?? '').trim() || number || lid, number, lid, peer.profilePicUrl ?? '', peer.isGroup ?? false],
    );
    if (rows.length > 0) return em.map(Contact, rows[0]);
    found = await find();
  }

  let contact = found.find((c) => number && c.number === number) ?? found[0];
  const other = found.find((c) => c.id !== contact.id);
  if (other) {
    await mergeContacts(em, contact, other);
    contact = await em.findOneOrFail(Contact, contact.id, { refresh: true });
  }
  let changed = false;
  if (number && !contact.number) {
    contact.number = number;
    changed = true;
  }
  if (lid && !contact.lid) {
    contact.lid = lid;
    changed = true;
  }
  // A name typed by an agent wins over the one from the phone; a placeholder does not.
  if (peer.name?.trim() && isPlaceholderName(contact) && contact.name !== peer.name.trim()) {
    contact.name = peer.name.trim();
    changed = true;
  }
  if (peer.profilePicUrl && peer.profilePicUrl !== contact.profilePicUrl) {
    contact.profilePicUrl = peer.profilePicUrl;
    changed = true;
  }
  if (changed) await em.flush();
  return contact;
};
