import type { Translation } from '../../../i18n/types';
import type en from './en';

const pt: Translation<typeof en> = {
  title: 'Configurações',
  tabs: { options: 'Opções', schedules: 'Horários', companies: 'Empresas', plans: 'Planos', helps: 'Ajuda' },
  options: {
    userRating: 'Avaliações',
    scheduleType: 'Gerenciamento de expediente',
    call: 'Aceitar chamadas',
    CheckMsgIsGroup: 'Ignorar mensagens de grupos',
    sendGreetingAccepted: 'Enviar saudação ao aceitar o chamado',
    sendMsgTransfTicket: 'Enviar mensagem ao transferir o chamado',
    sendGreetingMessageOneQueues: 'Enviar saudação quando houver só uma fila',
    chatBotType: 'Tipo do chatbot',
    campaignsEnabled: 'Campanhas',
    asaas: 'Token do provedor de pagamento',
    saveToken: 'Salvar token',
  },
  values: {
    enabled: 'Habilitado',
    disabled: 'Desabilitado',
    company: 'Empresa',
    queue: 'Fila',
    text: 'Texto',
    button: 'Botão',
    list: 'Lista',
    true: 'Habilitado',
    false: 'Desabilitado',
  },
  schedules: {
    weekday: 'Dia da semana',
    start: 'Início',
    end: 'Fim',
    save: 'Salvar horários',
    days: {
      monday: 'Segunda-feira',
      tuesday: 'Terça-feira',
      wednesday: 'Quarta-feira',
      thursday: 'Quinta-feira',
      friday: 'Sexta-feira',
      saturday: 'Sábado',
      sunday: 'Domingo',
    },
  },
  placeholder: 'Esta seção está em construção.',
  toasts: { updated: 'Configurações atualizadas com sucesso.', schedulesUpdated: 'Horários atualizados com sucesso.' },
};

export default pt;
