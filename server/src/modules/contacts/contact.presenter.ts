import type { ContactView } from '@atrium/shared';
import type { Contact } from './contact.entity.js';

/** A contact as the API shows it; a LID-only contact shows its LID as the number. */
export const presentContact = (c: Contact): ContactView<Date> => ({
  id: c.id,
  name: c.name,
  number: c.number ?? c.lid ?? '',
  email: c.email,
  profilePicUrl: c.profilePicUrl,
  isGroup: c.isGroup,
  uuid: c.uuid,
  companyId: c.companyId,
  createdAt: c.createdAt,
  updatedAt: c.updatedAt,
});
