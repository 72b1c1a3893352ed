import type { Translation } from '../../../i18n/types';
import type en from './en';

const pt: Translation<typeof en> = {
  title: 'Dashboard',
  refresh: 'Atualizar',
  selectFilterError: 'Selecione ao menos um filtro: um período ou uma data.',
  userChartError: 'Não foi possível carregar o gráfico de atendimentos por usuário.',
  dateChartError: 'Não foi possível carregar o gráfico de atendimentos por dia.',
  filter: {
    title: 'Filtro do dashboard',
    type: 'Tipo de filtro',
    byDate: 'Filtro por data',
    byPeriod: 'Filtro por período',
    period: 'Período',
    noPeriod: 'Nenhum selecionado',
    lastDays_one: 'Último dia',
    lastDays_other: 'Últimos {{count}} dias',
    dateFrom: 'Data inicial',
    dateTo: 'Data final',
    apply: 'Filtrar',
  },
  counters: {
    happening: 'Em atendimento',
    pending: 'Aguardando',
    finished: 'Finalizados',
    leads: 'Novos contatos',
    avgSupportTime: 'Tempo médio de atendimento',
    avgWaitTime: 'Tempo médio de espera',
  },
  attendants: {
    title: 'Atendentes',
    name: 'Nome',
    rating: 'Avaliação',
    stars: 'Avaliação {{value}} de {{max}}',
    avgSupportTime: 'Tempo médio de atendimento',
    tickets: 'Atendimentos',
    status: 'Status',
    online: 'Online',
    offline: 'Offline',
  },
  charts: {
    users: 'Atendimentos por usuário',
    perDay: 'Atendimentos por dia',
    perHour: 'Atendimentos por hora',
    timeZone: 'Contados no fuso horário da empresa ({{zone}})',
    timeZoneUnnamed: 'Contados no fuso horário da empresa',
    initialDate: 'Data inicial',
    finalDate: 'Data final',
    invalidRange: 'A data inicial deve ser igual ou anterior à final.',
    total_one: '{{count}} atendimento no total',
    total_other: '{{count}} atendimentos no total',
    empty: 'Nenhum atendimento neste período',
  },
};

export default pt;
