import type { Translation } from '../../../i18n/types';
import type en from './en';

const es: Translation<typeof en> = {
  title: 'Configuración',
  tabs: { options: 'Opciones', schedules: 'Horarios', companies: 'Empresas', plans: 'Planes', helps: 'Ayuda' },
  options: {
    userRating: 'Evaluaciones',
    scheduleType: 'Gestión de horarios',
    call: 'Aceptar llamadas',
    CheckMsgIsGroup: 'Ignorar mensajes de grupos',
    sendGreetingAccepted: 'Enviar saludo al aceptar el ticket',
    sendMsgTransfTicket: 'Enviar mensaje al transferir el ticket',
    sendGreetingMessageOneQueues: 'Enviar saludo cuando hay una sola cola',
    chatBotType: 'Tipo de chatbot',
    campaignsEnabled: 'Campañas',
    asaas: 'Token del proveedor de pagos',
    saveToken: 'Guardar token',
  },
  values: {
    enabled: 'Habilitado',
    disabled: 'Deshabilitado',
    company: 'Empresa',
    queue: 'Cola',
    text: 'Texto',
    button: 'Botón',
    list: 'Lista',
    true: 'Habilitado',
    false: 'Deshabilitado',
  },
  schedules: {
    weekday: 'Día de la semana',
    start: 'Inicio',
    end: 'Fin',
    save: 'Guardar horarios',
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
  placeholder: 'Esta sección está en construcción.',
  toasts: { updated: 'Configuración actualizada con éxito.', schedulesUpdated: 'Horarios actualizados con éxito.' },
};

export default es;
