export { useUnreadChats } from './use-chats';
