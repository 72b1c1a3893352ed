import { AnnouncementsBell } from '../../features/announcements/components/announcements-bell';
import { ChatsBell } from '../../features/chats/components/chats-bell';
import { NotificationsBell } from '../../features/notifications/components/notifications-bell';

/**
 * The top bar's feature slots, in order: the notification bell (new tickets and messages, with browser
 * notifications and sound), the announcements bell and the internal-chat bell. Each feature owns its
 * component; this list only places them.
 */
export function TopBarSlots() {
  return (
    <>
      <NotificationsBell />
      <AnnouncementsBell />
      <ChatsBell />
    </>
  );
}
