import type { Translation } from '../../../i18n/types';
import type en from './en';

const es: Translation<typeof en> = {
  title: 'Finanzas',
  search: 'Buscar',
  empty: 'Todavía no hay facturas.',
  columns: {
    id: 'Id',
    detail: 'Detalle',
    value: 'Valor',
    dueDate: 'Fecha de vencimiento',
    status: 'Estado',
    actions: 'Acción',
  },
  status: {
    paid: 'Pagado',
    expired: 'Vencido',
    open: 'Abierto',
  },
  pay: 'Pagar',
  paid: 'Pagado',
};

export default es;
