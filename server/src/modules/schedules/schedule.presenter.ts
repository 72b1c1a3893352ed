import type { MediaStore } from '../../media/storage.js';
import type { Contact } from '../contacts/contact.entity.js';
import type { Schedule } from './schedule.entity.js';

/** A schedule on the wire (spec 01 section 3): the contact's id, name and number, and a signed media URL. */
export const presentSchedule = (media: MediaStore, s: Schedule, contact: Pick<Contact, 'id' | 'name' | 'number'> | null) => ({
  id: s.id,
  body: s.body,
  sendAt: s.sendAt,
  sentAt: s.sentAt,
  status: s.status,
  /** Why the last attempt failed (an error code), shown with ERRO. */
  error: s.error,
  attempts: s.attempts,
  contactId: s.contactId,
  contact: contact ? { id: contact.id, name: contact.name, number: contact.number } : null,
  userId: s.userId,
  whatsappId: s.whatsappId,
  ticketId: s.ticketId,
  mediaPath: s.mediaPath,
  mediaName: s.mediaName,
  mediaUrl: media.url(s.companyId, s.mediaPath),
  companyId: s.companyId,
  createdAt: s.createdAt,
  updatedAt: s.updatedAt,
});

export type ScheduleView = ReturnType<typeof presentSchedule>;
