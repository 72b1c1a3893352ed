/** Strings of the contacts feature (namespace 'contacts'): useTranslation('contacts'). */
const en = {
  title: 'Contacts',
  search: 'Search contacts',
  add: 'Add contact',
  import: 'Import .xlsx',
  export: 'Export CSV',
  empty: 'No contacts found.',
  onlyXlsx: 'Only .xlsx files can be imported.',
  columns: { picture: '', name: 'Name', number: 'WhatsApp', email: 'Email', actions: 'Actions' },
  actions: { startTicket: 'Start ticket', edit: 'Edit', delete: 'Delete' },
  modal: {
    addTitle: 'Add contact',
    editTitle: 'Edit contact',
    name: 'Name',
    number: 'WhatsApp number',
    email: 'Email',
    extraInfo: 'Additional information',
    extraName: 'Field',
    extraValue: 'Value',
    addExtra: 'Add field',
    removeExtra: 'Remove field',
  },
  importResult: {
    title: 'Import result',
    created_one: '{{count}} contact created',
    created_other: '{{count}} contacts created',
    errors_one: '{{count}} contact not imported',
    errors_other: '{{count}} contacts not imported',
    fields: {
      name: 'Name: 2 to 50 characters',
      number: 'WhatsApp number: 8 to 50 digits',
      email: 'Email: not a valid address (leave it empty for none)',
      unknown: 'a column holds an invalid value',
    },
  },
  confirmDelete: {
    title: 'Delete contact {{name}}?',
    body: 'All the interactions of this contact will be lost.',
  },
  ticketOwned: 'This contact already has a ticket with {{user}} in queue {{queue}}.',
  noQueue: 'no queue',
  toasts: { saved: 'Contact saved.', deleted: 'Contact deleted.' },
};

export default en;
