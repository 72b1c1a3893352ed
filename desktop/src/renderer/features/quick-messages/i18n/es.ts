import type { Translation } from '../../../i18n/types';
import type en from './en';

const es: Translation<typeof en> = {
  title: 'Respuestas rápidas',
  search: 'Buscar respuestas rápidas',
  add: 'Agregar',
  empty: 'Aún no hay respuestas rápidas',
  columns: { shortcode: 'Atajo', attachment: 'Adjunto', actions: 'Acciones' },
  noMedia: 'Ninguno',
  shared: 'Global',
  inactive: 'Inactiva',
  modal: {
    addTitle: 'Agregar respuesta rápida',
    editTitle: 'Editar respuesta rápida',
    shortcode: 'Atajo',
    shortcodeHint: 'Escriba / y esta palabra en una conversación para usarla.',
    message: 'Mensaje',
    messageHint: 'Variables: {{variables}}.',
    geral: 'Compartida con toda la empresa',
    status: 'Activa (sugerida con / en las conversaciones)',
    attachment: 'Adjunto',
    attach: 'Adjuntar archivo',
    removeAttachment: 'Quitar el adjunto',
  },
  invalidFile: 'Este tipo de archivo no se puede adjuntar, o supera {{max}} MB.',
  toasts: { saved: 'Respuesta rápida guardada.', deleted: 'Respuesta rápida eliminada.' },
  confirmDelete: { title: '¿Eliminar {{shortcode}}?', body: 'No se puede deshacer.' },
};

export default es;
