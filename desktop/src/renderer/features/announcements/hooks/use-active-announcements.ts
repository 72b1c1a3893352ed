import { ANNOUNCEMENT_EVENT, type AnnouncementEventPayload } from '@atrium/shared';
import { queryClient, useQuery } from '../../../api/query';
import { useRealtimeRawEvent } from '../../../api/socket';
import { ACTIVE_ANNOUNCEMENTS_KEY, announcementsApi, type Announcement } from '../api/announcements';

const newestFirst = (a: Announcement, b: Announcement) =>
  new Date(b.createdAt).getTime() - new Date(a.createdAt).getTime() || b.id - a.id;

/**
 * The bell's list after a `company-announcement` event: a deleted or switched-off one leaves (an inactive
 * one arrives as its id and status only), a new or changed active one is put in place, newest first.
 */
export const applyAnnouncementEvent = (
  list: Announcement[] | undefined,
  event: AnnouncementEventPayload<Partial<Announcement>>,
): Announcement[] | undefined => {
  if (!list) return list;
  if (event.action === 'delete') return list.filter((a) => a.id !== event.id);
  const record = event.record;
  if (!record || typeof record.id !== 'number') return list;
  if (record.status !== true) return list.filter((a) => a.id !== record.id);
  const others = list.filter((a) => a.id !== record.id);
  const previous = list.find((a) => a.id === record.id);
  return [...others, { ...previous, ...record } as Announcement].sort(newestFirst);
};

/** The active announcements (GET /announcements/list), kept live by `company-announcement`. */
export function useActiveAnnouncements() {
  const query = useQuery(ACTIVE_ANNOUNCEMENTS_KEY, announcementsApi.active, { silent: true });
  useRealtimeRawEvent<AnnouncementEventPayload<Partial<Announcement>>>(ANNOUNCEMENT_EVENT, (event) => {
    queryClient.setQueryData<Announcement[]>(ACTIVE_ANNOUNCEMENTS_KEY, (old) => applyAnnouncementEvent(old, event));
  });
  return query;
}
