import type { Translation } from '../../../i18n/types';
import type en from './en';

const es: Translation<typeof en> = {
  title: 'Dashboard',
  refresh: 'Actualizar',
  selectFilterError: 'Seleccione al menos un filtro: un período o una fecha.',
  userChartError: 'No se pudo cargar el gráfico de atenciones por usuario.',
  dateChartError: 'No se pudo cargar el gráfico de atenciones por día.',
  filter: {
    title: 'Filtro del dashboard',
    type: 'Tipo de filtro',
    byDate: 'Filtro por fecha',
    byPeriod: 'Filtro por período',
    period: 'Período',
    noPeriod: 'Ninguno seleccionado',
    lastDays_one: 'Último día',
    lastDays_other: 'Últimos {{count}} días',
    dateFrom: 'Fecha inicial',
    dateTo: 'Fecha final',
    apply: 'Filtrar',
  },
  counters: {
    happening: 'En atención',
    pending: 'En espera',
    finished: 'Finalizados',
    leads: 'Nuevos contactos',
    avgSupportTime: 'Tiempo medio de atención',
    avgWaitTime: 'Tiempo medio de espera',
  },
  attendants: {
    title: 'Agentes',
    name: 'Nombre',
    rating: 'Calificación',
    stars: 'Calificación {{value}} de {{max}}',
    avgSupportTime: 'Tiempo medio de atención',
    tickets: 'Atenciones',
    status: 'Estado',
    online: 'En línea',
    offline: 'Desconectado',
  },
  charts: {
    users: 'Atenciones por usuario',
    perDay: 'Atenciones por día',
    perHour: 'Atenciones por hora',
    timeZone: 'Contados en la zona horaria de la empresa ({{zone}})',
    timeZoneUnnamed: 'Contados en la zona horaria de la empresa',
    initialDate: 'Fecha inicial',
    finalDate: 'Fecha final',
    invalidRange: 'La fecha inicial debe ser igual o anterior a la final.',
    total_one: '{{count}} atención en total',
    total_other: '{{count}} atenciones en total',
    empty: 'Ninguna atención en este período',
  },
};

export default es;
