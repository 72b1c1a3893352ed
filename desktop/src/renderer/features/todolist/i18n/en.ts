/** Strings of the todolist feature (namespace 'todolist'): useTranslation('todolist'). */
const en = {
  title: 'To-do list',
};

export default en;
