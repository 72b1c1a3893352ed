/** Strings of the tags feature (namespace 'tags'): useTranslation('tags'). */
const en = {
  title: 'Tags',
  search: 'Search tags',
  add: 'Add tag',
  empty: 'No tags yet',
  columns: { name: 'Name', tickets: 'Tickets', actions: 'Actions' },
  kanbanBadge: 'Kanban',
  modal: {
    addTitle: 'Add tag',
    editTitle: 'Edit tag',
    name: 'Name',
    color: 'Colour',
    colorPicker: 'Pick a colour',
    kanban: 'Kanban lane',
    kanbanHint: 'Tickets with this tag show in their own lane on the kanban board.',
  },
  toasts: { saved: 'Tag saved.', deleted: 'Tag deleted.' },
  confirmDelete: {
    title: 'Delete the tag {{name}}?',
    body: 'The tag leaves every ticket that carries it. This cannot be undone.',
  },
};

export default en;
