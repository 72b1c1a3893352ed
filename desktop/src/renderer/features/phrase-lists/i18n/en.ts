/** Strings of the phrase-lists feature (namespace 'phrase-lists'): useTranslation('phrase-lists'). */
const en = {
  title: 'Flow campaigns',
  search: 'Search flow campaigns',
  add: 'Add',
  empty: 'No flow campaigns yet',
  columns: { name: 'Name', phrase: 'Phrase', flow: 'Flow', connection: 'Connection', status: 'Status', actions: 'Actions' },
  status: { active: 'Active', inactive: 'Inactive' },
  modal: {
    addTitle: 'Add flow campaign',
    editTitle: 'Edit flow campaign',
    name: 'Name',
    flow: 'Flow',
    connection: 'Connection',
    pick: 'Choose',
    phrase: 'Phrase',
    phraseHint: 'Compared without case, accents or extra spaces.',
    contains: 'Also when the message contains the phrase',
    active: 'Active',
    required: 'Required',
  },
  toasts: { saved: 'Flow campaign saved.', deleted: 'Flow campaign deleted.' },
  confirmDelete: { title: 'Delete the flow campaign {{name}}?', body: 'Its phrase no longer starts the flow. This cannot be undone.' },
};

export default en;
