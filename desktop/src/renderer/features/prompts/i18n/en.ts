/** Strings of the prompts feature (namespace 'prompts'): useTranslation('prompts'). */
const en = {
  title: 'Open.Ai prompts',
  search: 'Search prompts',
  add: 'Add prompt',
  empty: 'No prompts yet',
  columns: { name: 'Name', queue: 'Queue', maxTokens: 'Max. tokens', actions: 'Actions' },
  dialog: {
    addTitle: 'Add prompt',
    editTitle: 'Edit prompt',
    name: 'Name',
    prompt: 'Prompt',
    promptHint: 'What the assistant knows and how it answers (at least 50 characters).',
    model: 'Model',
    modelRetiring: '{{label}} (retires {{date}})',
    retires: 'The provider retires this model on {{date}}: choose another.',
    apiKey: 'API key',
    apiKeyKept: 'A key ending in {{last4}} is saved; leave empty to keep it.',
    queue: 'Queue (handoff)',
    chooseQueue: 'Choose a queue',
    queueRequired: 'Choose the queue (sector) the conversation goes to.',
    temperature: 'Temperature: {{value}}',
    maxTokens: 'Max. tokens in the answer',
    maxMessages: 'Max. messages in the history',
    handoffHint: 'When the assistant hands the conversation over, the ticket waits for a person in this queue.',
  },
  usage: { month: 'This month: {{tokens}} tokens in {{requests}} requests', hint: "Automatic replies, voice notes and the agents' suggestions and summaries, for every prompt of the company." },
  toasts: { saved: 'Prompt saved.', deleted: 'Prompt deleted.' },
  confirmDelete: { title: 'Delete {{name}}?', body: 'The prompt is removed. This cannot be undone.' },
};

export default en;
