import type { Translation } from '../../../i18n/types';
import type en from './en';

const pt: Translation<typeof en> = {
  title: 'Notificações',
  empty: 'Nenhuma mensagem nova',
  newMessage: 'Nova mensagem',
};

export default pt;
