/** Strings of the users feature (namespace 'users'): useTranslation('users'). */
const en = {
  title: 'Users',
  search: 'Search users',
  add: 'Add user',
  empty: 'No users found.',
  columns: { id: 'ID', name: 'Name', email: 'Email', profile: 'Profile', actions: 'Actions' },
  fields: {
    name: 'Name',
    email: 'Email',
    password: 'Password',
    passwordHint: 'Leave blank to keep the current password',
    profile: 'Profile',
    queues: 'Queues',
    connection: 'Default connection',
    noConnection: 'None',
    allTicket: 'See tickets without a queue',
    language: 'Language',
  },
  profiles: { admin: 'Admin', user: 'User' },
  allTicket: { enabled: 'Enabled', desabled: 'Disabled' },
  modal: { addTitle: 'Add user', editTitle: 'Edit user' },
  confirmDelete: {
    title: 'Delete user {{name}}?',
    body: 'The user’s open tickets go back to pending.',
  },
  sessions: {
    title: 'Sessions',
    allowed_one: 'Your company allows one session per user: signing in elsewhere ends this one.',
    allowed_other: 'Your company allows {{count}} sessions per user at once; signing in on one more ends the least recently used.',
    current: 'This device',
    lastUsed: 'Last used {{at}}',
    desktop: 'Atrium desktop app',
    on: '{{app}} on {{os}}',
    unknownBrowser: 'Browser',
    end: 'End',
    ended: 'Session ended.',
  },
  toasts: { saved: 'User saved successfully.', deleted: 'User deleted successfully.', profileSaved: 'Profile saved.' },
};

export default en;
