import type { Translation } from '../../../i18n/types';
import type en from './en';

const es: Translation<typeof en> = {
  title: 'Notificaciones',
  empty: 'Sin mensajes nuevos',
  newMessage: 'Nuevo mensaje',
  handoff: 'Esperando a un agente en {{queue}}',
  handoffNoQueue: 'Esperando a un agente',
};

export default es;
