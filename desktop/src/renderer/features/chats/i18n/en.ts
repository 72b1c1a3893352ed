/** Strings of the chats feature (namespace 'chats'): useTranslation('chats'). */
const en = {
  title: 'Internal chat',
  tabs: { chats: 'Chats', messages: 'Messages' },
  list: {
    new: 'New chat',
    empty: 'No chats yet.',
    emptyHint: 'Start one with a colleague.',
    unread: '{{count}} unread',
  },
  conversation: {
    pick: 'Pick a chat to read its messages.',
    empty: 'No messages yet. Say hello!',
    loadingOlder: 'Loading older messages…',
    you: 'You',
    edit: 'Edit chat',
    delete: 'Delete chat',
    back: 'Back to chats',
    participants: 'Participants: {{names}}',
    attachment: 'Attachment',
    openAttachment: 'Open {{name}}',
  },
  composer: {
    placeholder: 'Type a message',
    send: 'Send',
    attach: 'Attach a file',
    removeFile: 'Remove {{name}}',
  },
  dialog: {
    addTitle: 'New chat',
    editTitle: 'Edit chat',
    name: 'Title',
    users: 'Participants',
    search: 'Filter users',
    noUsers: 'No other users in this company.',
    titleRequired: 'Give the chat a title.',
    usersRequired: 'Pick at least one participant.',
  },
  confirmDelete: {
    title: 'Delete this chat?',
    body: 'The chat "{{title}}" and all of its messages will be deleted for everyone.',
  },
  bell: {
    title: 'Internal chat',
    empty: 'No unread chat messages.',
    openAll: 'Open internal chat',
  },
  notification: {
    title: '{{chat}}',
    body: '{{sender}}: {{text}}',
    file: '📎 {{name}}',
  },
  toasts: {
    created: 'Chat created.',
    saved: 'Chat saved.',
    deleted: 'Chat deleted.',
  },
  noPlan: 'This company is not allowed to use this page. Redirecting you.',
};

export default en;
