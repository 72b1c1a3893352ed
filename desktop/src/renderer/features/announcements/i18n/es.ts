import type { Translation } from '../../../i18n/types';
import type en from './en';

const es: Translation<typeof en> = {
  title: 'Informativos',
  search: 'Buscar',
  add: 'Agregar informativo',
  empty: 'Aún no hay informativos.',
  superOnly: 'Solo los superusuarios pueden gestionar informativos.',
  noMedia: 'Sin adjunto',
  columns: { title: 'Título', priority: 'Prioridad', mediaName: 'Adjunto', status: 'Estado', actions: 'Acciones' },
  priorities: { high: 'Alta', medium: 'Media', low: 'Baja' },
  status: { active: 'Activo', inactive: 'Inactivo' },
  modal: { addTitle: 'Nuevo informativo', editTitle: 'Editar informativo' },
  fields: {
    title: 'Título',
    text: 'Texto',
    priority: 'Prioridad',
    attachment: 'Imagen (png, jpg, jpeg)',
    attach: 'Adjuntar imagen',
    removeAttachment: 'Quitar imagen',
  },
  invalidFile: 'Elija una imagen png, jpg o jpeg de como máximo {{max}} MB.',
  confirmDelete: { title: '¿Eliminar "{{title}}"?', body: 'El informativo desaparece para todas las empresas. Esta acción no se puede deshacer.' },
  toasts: { saved: 'Informativo guardado con éxito.', deleted: 'Informativo eliminado con éxito.' },
  bell: { empty: 'No hay informativos.', hasImage: 'Tiene una imagen' },
};

export default es;
