import type { Translation } from '../../../i18n/types';
import type en from './en';

const es: Translation<typeof en> = {
  title: 'Chat interno',
  tabs: { chats: 'Chats', messages: 'Mensajes' },
  list: {
    new: 'Nuevo chat',
    empty: 'Todavía no hay chats.',
    emptyHint: 'Empiece uno con un colega.',
    unread: '{{count}} sin leer',
  },
  conversation: {
    pick: 'Elija un chat para leer sus mensajes.',
    empty: 'Todavía no hay mensajes. ¡Salude!',
    loadingOlder: 'Cargando mensajes anteriores…',
    you: 'Usted',
    edit: 'Editar chat',
    delete: 'Eliminar chat',
    back: 'Volver a los chats',
    participants: 'Participantes: {{names}}',
    attachment: 'Adjunto',
    openAttachment: 'Abrir {{name}}',
  },
  composer: {
    placeholder: 'Escriba un mensaje',
    send: 'Enviar',
    attach: 'Adjuntar un archivo',
    removeFile: 'Quitar {{name}}',
  },
  dialog: {
    addTitle: 'Nuevo chat',
    editTitle: 'Editar chat',
    name: 'Título',
    users: 'Participantes',
    search: 'Filtrar usuarios',
    noUsers: 'No hay otros usuarios en esta empresa.',
    titleRequired: 'Póngale un título al chat.',
    usersRequired: 'Elija al menos un participante.',
  },
  confirmDelete: {
    title: '¿Eliminar este chat?',
    body: 'El chat "{{title}}" y todos sus mensajes se eliminarán para todos.',
  },
  bell: {
    title: 'Chat interno',
    empty: 'No hay mensajes de chat sin leer.',
    openAll: 'Abrir el chat interno',
  },
  notification: {
    title: '{{chat}}',
    body: '{{sender}}: {{text}}',
    file: '📎 {{name}}',
  },
  toasts: {
    created: 'Chat creado.',
    saved: 'Chat guardado.',
    deleted: 'Chat eliminado.',
  },
  noPlan: 'Esta empresa no tiene permiso para acceder a esta página. Le estamos redirigiendo.',
};

export default es;
