import type { Translation } from '../../../i18n/types';
import type en from './en';

const es: Translation<typeof en> = {
  title: 'Notificaciones',
  empty: 'Sin mensajes nuevos',
  newMessage: 'Nuevo mensaje',
};

export default es;
