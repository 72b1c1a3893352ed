import type { Translation } from '../../../i18n/types';
import type en from './en';

const pt: Translation<typeof en> = {
  title: 'Financeiro',
  search: 'Pesquisar',
  empty: 'Nenhuma fatura ainda.',
  columns: {
    id: 'Id',
    detail: 'Detalhes',
    value: 'Valor',
    dueDate: 'Data de vencimento',
    status: 'Status',
    actions: 'Ação',
  },
  status: {
    paid: 'Pago',
    expired: 'Vencido',
    open: 'Em aberto',
  },
  pay: 'Pagar',
  paid: 'Pago',
};

export default pt;
