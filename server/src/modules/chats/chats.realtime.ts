import { companyEvent, rooms } from '@atrium/shared';
import type { EventBus } from '../../events/bus.js';
import type { Realtime } from '../../realtime/server.js';

/**
 * What clients hear of internal chats: only the participants' `user-{id}` rooms, never the company room
 * (spec 04 section 6 note). `company-{id}-chat` carries every action; the family's older names
 * (`company-{id}-chat-{chatId}` for messages and reads, `company-{id}-chat-user-{userId}` for create and
 * update) go out beside it, to the same participants.
 */
export const registerChatsRealtime = (events: EventBus, realtime: Realtime): void => {
  const participants = (chat: { users: { userId: number }[] }) => chat.users.map((u) => u.userId);
  /** An older event name to these users' rooms; never to nobody (`io.to([])` would mean everyone). */
  const legacy = (userIds: number[], name: string, payload: object) => {
    if (userIds.length > 0) realtime.io.to(userIds.map(rooms.user)).emit(name, payload);
  };

  events.on('chat.changed', ({ companyId, action, chat, removedUserIds }) => {
    const userIds = participants(chat);
    const payload = { action, record: chat, chat };
    realtime.toRooms(userIds.map(rooms.user), companyId, 'chat', payload);
    legacy(userIds, `${companyEvent(companyId, 'chat')}-${chat.id}`, { action: 'update', chat });
    for (const userId of userIds) legacy([userId], `${companyEvent(companyId, 'chat')}-user-${userId}`, { action, record: chat });
    if (removedUserIds.length > 0) realtime.toRooms(removedUserIds.map(rooms.user), companyId, 'chat', { action: 'delete', id: chat.id });
  });

  events.on('chat.message', ({ companyId, message, chat }) => {
    const userIds = participants(chat);
    const payload = { action: 'new-message', newMessage: message, chat };
    realtime.toRooms(userIds.map(rooms.user), companyId, 'chat', payload);
    legacy(userIds, `${companyEvent(companyId, 'chat')}-${chat.id}`, payload);
  });

  events.on('chat.deleted', ({ companyId, id, userIds }) => {
    realtime.toRooms(userIds.map(rooms.user), companyId, 'chat', { action: 'delete', id });
  });
};
