import type { Translation } from '../../../i18n/types';
import type en from './en';

const es: Translation<typeof en> = {
  title: 'Etiquetas',
  search: 'Buscar etiquetas',
  add: 'Agregar etiqueta',
  empty: 'Aún no hay etiquetas',
  columns: { name: 'Nombre', tickets: 'Tickets', actions: 'Acciones' },
  kanbanBadge: 'Kanban',
  modal: {
    addTitle: 'Agregar etiqueta',
    editTitle: 'Editar etiqueta',
    name: 'Nombre',
    color: 'Color',
    colorPicker: 'Elegir un color',
    kanban: 'Columna del kanban',
    kanbanHint: 'Los tickets con esta etiqueta aparecen en su propia columna del kanban.',
  },
  toasts: { saved: 'Etiqueta guardada.', deleted: 'Etiqueta eliminada.' },
  confirmDelete: {
    title: '¿Eliminar la etiqueta {{name}}?',
    body: 'La etiqueta se quita de todos los tickets que la tienen. No se puede deshacer.',
  },
};

export default es;
