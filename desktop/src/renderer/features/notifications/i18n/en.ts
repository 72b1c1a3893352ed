/** Strings of the notifications feature (namespace 'notifications'). */
const en = {
  title: 'Notifications',
  empty: 'No new messages',
  newMessage: 'New message',
  handoff: 'Waiting for an agent in {{queue}}',
  handoffNoQueue: 'Waiting for an agent',
};

export default en;
