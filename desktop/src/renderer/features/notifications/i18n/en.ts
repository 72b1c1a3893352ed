/** Strings of the notifications feature (namespace 'notifications'). */
const en = {
  title: 'Notifications',
  empty: 'No new messages',
  newMessage: 'New message',
};

export default en;
