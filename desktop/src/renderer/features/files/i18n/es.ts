import type { Translation } from '../../../i18n/types';
import type en from './en';

const es: Translation<typeof en> = {
  title: 'Lista de archivos',
  search: 'Buscar listas de archivos',
  add: 'Agregar',
  empty: 'Aún no hay listas de archivos',
  columns: { name: 'Nombre', actions: 'Acciones' },
  fileCount_one: '{{count}} archivo',
  fileCount_other: '{{count}} archivos',
  dialog: {
    addTitle: 'Agregar lista de archivos',
    editTitle: 'Editar lista de archivos',
    name: 'Nombre',
    message: 'Mensaje',
    options: 'Archivos',
    addOption: 'Agregar archivo',
    noOptions: 'Aún no hay archivos en esta lista.',
    optionName: 'Nombre del archivo',
    optionNameRequired: 'Cada archivo necesita un nombre.',
    chooseFile: 'Elegir archivo',
    replaceFile: 'Cambiar',
    removeFile: 'Quitar el archivo',
    removeOption: 'Quitar este elemento',
    noFile: 'Sin archivo',
    uploading: 'Subiendo… {{percent}}%',
  },
  invalidFile: 'Este tipo de archivo no se acepta, o supera {{max}} MB.',
  toasts: { saved: 'Lista de archivos guardada.', deleted: 'Archivos eliminados.' },
  confirmDelete: { title: '¿Eliminar {{name}}?', body: 'Se eliminarán la lista y sus archivos. Esta acción no se puede deshacer.' },
};

export default es;
