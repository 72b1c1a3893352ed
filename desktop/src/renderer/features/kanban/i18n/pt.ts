import type { Translation } from '../../../i18n/types';
import type en from './en';

const pt: Translation<typeof en> = {
  title: 'Kanban',
  subtitle: 'Arraste um cartão para outra coluna para trocar a tag.',
  showAll: 'Todos os tickets',
  noTagLane: 'Sem tag',
  count_one: '{{count}} ticket',
  count_other: '{{count}} tickets',
  empty: 'Nenhum ticket',
  loading: 'Carregando…',
  loadMore: 'Carregar mais',
  moveTo: 'Mover para',
  seeTicket: 'Ver ticket',
  unread_one: '{{count}} mensagem não lida',
  unread_other: '{{count}} mensagens não lidas',
  unassigned: 'Sem atendente',
  noQueue: 'Sem fila',
  noMessage: 'Sem mensagens',
  dragCard: '{{name}}, ticket #{{id}}, na coluna {{lane}}',
  dragInstructions: 'Arraste um cartão para outra coluna para trocar a tag. Pelo teclado: espaço pega o cartão, as setas escolhem a coluna, espaço solta e escape cancela.',
  dragLane: 'Mover a coluna {{lane}}',
  moved: 'Ticket movido para {{lane}}',
  moveFailed: 'Não foi possível mover o cartão; ele voltou para a coluna.',
  reorderFailed: 'Não foi possível reordenar as colunas.',
  planDisabled: 'Esta empresa não possui permissão para acessar essa página! Estamos lhe redirecionando.',
  noLanes: 'Ainda não há colunas: um administrador marca tags como kanban na página Tags.',
  announcements: {
    pickedCard: 'Ticket #{{id}} selecionado.',
    overLane: 'Ticket #{{id}} sobre a coluna {{lane}}.',
    droppedCard: 'Ticket #{{id}} solto na coluna {{lane}}.',
    cancelled: 'Movimento do ticket #{{id}} cancelado.',
    pickedLane: 'Coluna {{lane}} selecionada.',
    overLaneLane: 'Coluna {{lane}} sobre a coluna {{over}}.',
    droppedLane: 'Coluna {{lane}} solta.',
  },
};

export default pt;
