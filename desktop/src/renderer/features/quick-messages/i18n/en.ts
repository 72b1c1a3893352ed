/** Strings of the quick-messages feature (namespace 'quick-messages'): useTranslation('quick-messages'). */
const en = {
  title: 'Quick messages',
  search: 'Search quick messages',
  add: 'Add',
  empty: 'No quick messages yet',
  columns: { shortcode: 'Shortcode', attachment: 'Attachment', actions: 'Actions' },
  noMedia: 'None',
  shared: 'Shared',
  inactive: 'Inactive',
  modal: {
    addTitle: 'Add quick message',
    editTitle: 'Edit quick message',
    shortcode: 'Shortcode',
    shortcodeHint: 'Type / and this word in a conversation to use it.',
    message: 'Message',
    messageHint: 'Variables: {{variables}}.',
    geral: 'Shared with the whole company',
    status: 'Active (offered with / in conversations)',
    attachment: 'Attachment',
    attach: 'Attach a file',
    removeAttachment: 'Remove the attachment',
  },
  invalidFile: 'This file type cannot be attached, or it is over {{max}} MB.',
  toasts: { saved: 'Quick message saved.', deleted: 'Quick message deleted.' },
  confirmDelete: { title: 'Delete {{shortcode}}?', body: 'This cannot be undone.' },
};

export default en;
