/** Strings of the kanban feature (namespace 'kanban'): useTranslation('kanban'). */
const en = {
  title: 'Kanban',
};

export default en;
