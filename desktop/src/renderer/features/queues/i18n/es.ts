import type { Translation } from '../../../i18n/types';
import type en from './en';

const es: Translation<typeof en> = {
  title: 'Colas & Chatbot',
  add: 'Agregar cola',
  empty: 'Todavía no hay colas.',
  columns: { id: 'ID', name: 'Nombre', color: 'Color', order: 'Orden', greeting: 'Mensaje de saludo', actions: 'Acciones' },
  modal: {
    addTitle: 'Agregar cola',
    editTitle: 'Editar cola',
    tabs: { data: 'Datos de la cola', schedules: 'Horario de atención', options: 'Opciones del chatbot' },
    name: 'Nombre',
    color: 'Color',
    colorPicker: 'Elegir un color',
    colorHint: 'Un código hexadecimal como #6264a7',
    greetingMessage: 'Mensaje de saludo',
    greetingRequired: 'Obligatorio cuando la empresa tiene más de una cola',
    outOfHoursMessage: 'Mensaje fuera de horario',
    orderQueue: 'Orden (bot)',
    integration: 'Integración',
    prompt: 'Prompt',
    none: 'Ninguno',
  },
  schedules: {
    weekday: 'Día',
    start: 'Inicio',
    end: 'Fin',
    startOf: '{{day}} inicio',
    endOf: '{{day}} fin',
    invalid: 'Use HH:MM en todos los horarios.',
    days: {
      monday: 'Lunes',
      tuesday: 'Martes',
      wednesday: 'Miércoles',
      thursday: 'Jueves',
      friday: 'Viernes',
      saturday: 'Sábado',
      sunday: 'Domingo',
    },
  },
  options: {
    saveQueueFirst: 'Guarde la cola primero y ábrala de nuevo para armar el menú del chatbot.',
    empty: 'Todavía no hay opciones: la cola responde sin menú.',
    add: 'Agregar opción',
    addChild: 'Agregar subopción',
    title: 'Título',
    message: 'Mensaje',
    key: 'Clave',
    unsaved: 'Sin guardar',
    noMessage: 'Sin mensaje',
    confirmDelete: { title: '¿Eliminar la opción {{title}}?', body: 'Sus subopciones también se eliminan; las claves siguientes suben.' },
    toasts: { saved: 'Opción guardada.', deleted: 'Opción eliminada.' },
  },
  confirmDelete: {
    title: '¿Eliminar la cola {{name}}?',
    body: 'Los tickets se quedan, sin cola. Se eliminan las opciones del chatbot.',
  },
  toasts: { saved: 'Cola guardada con éxito.', deleted: 'Cola eliminada con éxito.' },
};

export default es;
