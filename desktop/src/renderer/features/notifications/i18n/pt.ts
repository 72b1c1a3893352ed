import type { Translation } from '../../../i18n/types';
import type en from './en';

const pt: Translation<typeof en> = {
  title: 'Notificações',
  empty: 'Nenhuma mensagem nova',
  newMessage: 'Nova mensagem',
  handoff: 'Aguardando atendimento em {{queue}}',
  handoffNoQueue: 'Aguardando atendimento',
};

export default pt;
