/** Strings of the schedules feature (namespace 'schedules'): useTranslation('schedules'). */
const en = {
  title: 'Schedules',
  search: 'Search schedules',
  add: 'New schedule',
  empty: 'No scheduled messages this month.',
  planDisabled: 'Your plan does not include scheduled messages.',
  calendar: {
    previous: 'Previous month',
    next: 'Next month',
    today: 'Today',
  },
  status: {
    PENDENTE: 'Pending',
    AGENDADA: 'Sending',
    ENVIADA: 'Sent',
    ERRO: 'Send error',
  },
  actions: { edit: 'Edit', view: 'View', delete: 'Delete' },
  modal: {
    addTitle: 'New scheduled message',
    editTitle: 'Edit scheduled message',
    viewTitle: 'Scheduled message',
    body: 'Message',
    bodyHint: 'Variables such as {{variables}} are filled in when it is sent.',
    contact: 'Contact',
    contactPlaceholder: 'Type to search contacts',
    sendAt: 'Send at',
    attachment: 'Attachment (.png, .jpg, .jpeg)',
    chooseFile: 'Choose picture',
    removeFile: 'Remove attachment',
    sentAt: 'Sent on {{date}}.',
    sendError: 'This message could not be sent: {{reason}}',
    sendErrorRetry: 'Saving it again schedules a new attempt.',
    adminOnly: 'Only administrators can change a scheduled message.',
  },
  validation: {
    bodyTooShort: 'Message too short',
    onlyPictures: 'Only .png, .jpg and .jpeg files can be attached.',
  },
  confirmDelete: {
    title: 'Delete this scheduled message?',
    body: 'The message to {{name}} will not be sent.',
  },
  toasts: { saved: 'Schedule saved.', deleted: 'Schedule deleted.', mediaDeleted: 'Attachment removed.' },
};

export default en;
