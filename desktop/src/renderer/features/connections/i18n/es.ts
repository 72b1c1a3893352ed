import type { Translation } from '../../../i18n/types';
import type en from './en';

const es: Translation<typeof en> = {
  title: 'Conexiones',
  add: 'Agregar conexión',
  empty: 'Todavía no hay conexiones.',
  columns: {
    name: 'Nombre',
    status: 'Estado',
    session: 'Sesión',
    lastUpdate: 'Última actualización',
    default: 'Predeterminada',
    actions: 'Acciones',
  },
  buttons: {
    qrcode: 'Código QR',
    disconnect: 'Desconectar',
    tryAgain: 'Intentar de nuevo',
    newQr: 'Nuevo código QR',
    connecting: 'Conectando',
  },
  statusLabel: {
    qrcode: 'Esperando el código QR',
    PAIRING: 'Emparejando',
    TIMEOUT: 'Tiempo agotado',
    DISCONNECTED: 'Desconectado',
    OPENING: 'Conectando',
    CONNECTED: 'Conectado',
  },
  statusHint: {
    qrcode: 'Lea el código QR con el teléfono para iniciar la sesión.',
    PAIRING: 'Emparejando con el teléfono…',
    TIMEOUT: 'El teléfono tardó demasiado en responder.',
    DISCONNECTED: 'Se perdió la conexión. Intente de nuevo o pida un nuevo código QR.',
    OPENING: 'Conectando…',
    CONNECTED: 'Conectado',
  },
  modal: {
    addTitle: 'Agregar conexión',
    editTitle: 'Editar conexión',
    name: 'Nombre',
    isDefault: 'Predeterminada',
    provider: 'Proveedor',
    providers: { beta: 'WhatsApp', sandbox: 'Teléfono simulado' },
    greetingMessage: 'Mensaje de saludo',
    greetingRequired: 'Obligatorio cuando hay más de una cola',
    complationMessage: 'Mensaje de finalización',
    outOfHoursMessage: 'Mensaje fuera de horario',
    ratingMessage: 'Mensaje de evaluación',
    expiresInactiveMessage: 'Mensaje de inactividad',
    queues: 'Colas',
    noQueues: 'Ninguna cola',
    expiresTicket: 'Cerrar tickets tras (minutos)',
    timeToTransfer: 'Transferir después de (minutos)',
    transferQueueId: 'Transferir a la cola',
    none: 'Ninguna',
    maxUseBotQueues: 'Intentos del chatbot',
    timeUseBotQueues: 'Intervalo del chatbot (minutos)',
  },
  qr: {
    title: 'Lea el código QR para iniciar la sesión',
    waiting: 'Esperando el código QR…',
    sandboxScan: 'Escanear con el teléfono simulado',
    instructions: 'Abra WhatsApp en el teléfono, vaya a Dispositivos vinculados y apunte la cámara a este código.',
  },
  confirmDelete: {
    title: '¿Eliminar la conexión {{name}}?',
    body: 'Los tickets de esta conexión conservan sus mensajes, pero no llegarán mensajes nuevos.',
  },
  confirmDisconnect: {
    title: '¿Desconectar {{name}}?',
    body: 'La sesión termina; se necesitará un nuevo código QR.',
  },
  toasts: {
    saved: 'Conexión guardada con éxito.',
    deleted: 'Conexión eliminada con éxito.',
  },
  yes: 'Sí',
  no: 'No',
};

export default es;
