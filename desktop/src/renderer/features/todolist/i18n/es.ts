import type { Translation } from '../../../i18n/types';
import type en from './en';

const es: Translation<typeof en> = {
  title: 'Lista de tareas',
  placeholder: 'Nueva tarea',
  add: 'Agregar',
  save: 'Guardar',
  cancel: 'Cancelar',
  edit: 'Editar',
  remove: 'Quitar',
  empty: 'Nada que hacer. Agregue una tarea arriba.',
  created: 'Creada el {{date}}',
  updated: 'actualizada el {{date}}',
};

export default es;
