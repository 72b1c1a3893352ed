import type { ChatMessageView, ChatView } from '@atrium/shared';

/** The chats module's domain events (merged into the bus's DomainEvents); heard by the chat's participants only. */
declare module '../../events/bus.js' {
  interface DomainEvents {
    /** `removedUserIds`: participants an edit took out, who must drop the chat. */
    'chat.changed': { companyId: number; action: 'create' | 'update'; chat: ChatView<Date>; removedUserIds: number[] };
    'chat.message': { companyId: number; message: ChatMessageView<Date>; chat: ChatView<Date> };
    'chat.deleted': { companyId: number; id: number; userIds: number[] };
  }
}
