/** Strings of the todolist feature (namespace 'todolist'): useTranslation('todolist'). */
const en = {
  title: 'To-do list',
  placeholder: 'New task',
  add: 'Add',
  save: 'Save',
  cancel: 'Cancel',
  edit: 'Edit',
  remove: 'Remove',
  empty: 'Nothing to do. Add a task above.',
  created: 'Created {{date}}',
  updated: 'updated {{date}}',
};

export default en;
