import type { Translation } from '../../../i18n/types';
import type en from './en';

const es: Translation<typeof en> = {
  title: 'Kanban',
  subtitle: 'Arrastre una tarjeta a otra columna para cambiar su etiqueta.',
  showAll: 'Todos los tickets',
  noTagLane: 'Sin etiqueta',
  count_one: '{{count}} ticket',
  count_other: '{{count}} tickets',
  empty: 'Ningún ticket',
  loading: 'Cargando…',
  loadMore: 'Cargar más',
  moveTo: 'Mover a',
  seeTicket: 'Ver ticket',
  unread_one: '{{count}} mensaje no leído',
  unread_other: '{{count}} mensajes no leídos',
  unassigned: 'Sin agente',
  noQueue: 'Sin cola',
  noMessage: 'Sin mensajes',
  dragCard: '{{name}}, ticket #{{id}}, en la columna {{lane}}',
  dragInstructions: 'Arrastre una tarjeta a otra columna para cambiar su etiqueta. Con el teclado: espacio la toma, las flechas eligen la columna, espacio la suelta y escape cancela.',
  dragLane: 'Mover la columna {{lane}}',
  moved: 'Ticket movido a {{lane}}',
  moveFailed: 'No se pudo mover la tarjeta; volvió a su columna.',
  reorderFailed: 'No se pudieron reordenar las columnas.',
  planDisabled: 'Esta empresa no tiene permiso para acceder a esta página. Le estamos redirigiendo.',
  noLanes: 'Aún no hay columnas: un administrador marca etiquetas como kanban en la página Etiquetas.',
  announcements: {
    pickedCard: 'Ticket #{{id}} seleccionado.',
    overLane: 'Ticket #{{id}} sobre la columna {{lane}}.',
    droppedCard: 'Ticket #{{id}} soltado en la columna {{lane}}.',
    cancelled: 'Se canceló el movimiento del ticket #{{id}}.',
    pickedLane: 'Columna {{lane}} seleccionada.',
    overLaneLane: 'Columna {{lane}} sobre la columna {{over}}.',
    droppedLane: 'Columna {{lane}} soltada.',
  },
};

export default es;
