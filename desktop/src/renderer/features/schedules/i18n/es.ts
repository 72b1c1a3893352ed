import type { Translation } from '../../../i18n/types';
import type en from './en';

const es: Translation<typeof en> = {
  title: 'Programaciones',
  search: 'Buscar programaciones',
  add: 'Nueva programación',
  empty: 'No hay mensajes programados este mes.',
  planDisabled: 'Su plan no incluye mensajes programados.',
  calendar: {
    previous: 'Mes anterior',
    next: 'Mes siguiente',
    today: 'Hoy',
  },
  status: {
    PENDENTE: 'Pendiente',
    AGENDADA: 'Enviando',
    ENVIADA: 'Enviado',
    ERRO: 'Error de envío',
  },
  actions: { edit: 'Editar', view: 'Ver', delete: 'Eliminar' },
  modal: {
    addTitle: 'Nuevo mensaje programado',
    editTitle: 'Editar mensaje programado',
    viewTitle: 'Mensaje programado',
    body: 'Mensaje',
    bodyHint: 'Variables como {{variables}} se completan al enviar.',
    contact: 'Contacto',
    contactPlaceholder: 'Escriba para buscar contactos',
    sendAt: 'Enviar el',
    attachment: 'Adjunto (.png, .jpg, .jpeg)',
    chooseFile: 'Elegir imagen',
    removeFile: 'Quitar adjunto',
    sentAt: 'Enviado el {{date}}.',
    sendError: 'No se pudo enviar este mensaje: {{reason}}',
    sendErrorRetry: 'Guardarlo de nuevo programa un nuevo intento.',
    adminOnly: 'Solo los administradores pueden cambiar un mensaje programado.',
  },
  validation: {
    bodyTooShort: 'Mensaje muy corto',
    onlyPictures: 'Solo se pueden adjuntar archivos .png, .jpg y .jpeg.',
  },
  confirmDelete: {
    title: '¿Eliminar este mensaje programado?',
    body: 'El mensaje para {{name}} no se enviará.',
  },
  toasts: { saved: 'Programación guardada.', deleted: 'Programación eliminada.', mediaDeleted: 'Adjunto eliminado.' },
};

export default es;
