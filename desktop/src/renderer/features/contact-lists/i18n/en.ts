/** Strings of the contact-lists feature (namespace 'contact-lists'): useTranslation('contact-lists'). */
const en = {
  title: 'Contact lists',
  search: 'Search lists',
  add: 'Add list',
  empty: 'No contact lists yet',
  columns: { name: 'Name', contacts: 'Contacts', actions: 'Actions' },
  counts: {
    valid: '{{count}} on WhatsApp',
    invalid: '{{count}} not on WhatsApp',
    unchecked: '{{count}} not checked',
  },
  fromTag: 'From a tag',
  sample: 'Sample spreadsheet',
  openItems: 'Open the contacts of {{name}}',
  dialog: { addTitle: 'Add contact list', editTitle: 'Edit contact list', name: 'Name' },
  toasts: { saved: 'Contact list saved.', deleted: 'Contact list deleted.' },
  confirmDelete: {
    title: 'Delete the list {{name}}?',
    body: 'Its contacts are deleted with it. Campaigns that already sent keep their report.',
  },
  items: {
    title: 'Contacts in the list',
    search: 'Search contacts',
    add: 'Add contact',
    empty: 'No contacts in this list yet. Add one or import a spreadsheet.',
    columns: { whatsapp: 'WhatsApp', name: 'Name', number: 'Number', email: 'Email', actions: 'Actions' },
    dialog: { addTitle: 'Add contact', editTitle: 'Edit contact', name: 'Name', number: 'Number', email: 'Email' },
    toasts: { saved: 'Contact saved.', deleted: 'Contact deleted.' },
    confirmDelete: { title: 'Delete the contact {{name}}?', body: 'The contact leaves this list. This cannot be undone.' },
  },
  back: 'Back to the lists',
  valid: {
    yes: 'On WhatsApp',
    no: 'Not on WhatsApp',
    unchecked: 'Not checked yet',
  },
  import: {
    button: 'Import spreadsheet',
    hint: '.xls or .xlsx with the columns Name, Number and Email (in Portuguese, English or Spanish; case and accents do not matter).',
    uploading: 'Sending the spreadsheet…',
    running: 'Importing: {{processed}} of {{total}} rows',
    pending: 'Import queued…',
    done: 'Import of {{fileName}} finished: {{created}} added, {{duplicates}} duplicates skipped, {{invalid}} invalid rows.',
    failed: 'The import of {{fileName}} failed: {{reason}}',
    invalidReport: 'Download the invalid rows',
    wrongType: 'Only .xls and .xlsx spreadsheets can be imported.',
    reasons: {
      ERR_SPREADSHEET_UNREADABLE: 'the file is not a readable spreadsheet, or it has no number column.',
      ERR_PAYLOAD_TOO_LARGE: 'the spreadsheet has too many rows.',
      other: 'an unexpected error.',
    },
  },
  check: {
    button: 'Check numbers again',
    checking: 'Checking the numbers on WhatsApp: {{unchecked}} left (a few per second, so the number is not flagged).',
    noConnection: 'No connection is connected: {{unchecked}} numbers are not checked yet. They will be once a connection is up.',
    started: 'The numbers are being checked again.',
  },
};

export default en;
