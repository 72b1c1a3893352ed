import type { Translation } from '../../../i18n/types';
import type en from './en';

const es: Translation<typeof en> = {
  title: 'Contactos',
  search: 'Buscar contactos',
  add: 'Agregar contacto',
  import: 'Importar .xlsx',
  export: 'Exportar CSV',
  empty: 'No se encontraron contactos.',
  onlyXlsx: 'Solo se pueden importar archivos .xlsx.',
  columns: { picture: '', name: 'Nombre', number: 'WhatsApp', email: 'Correo electrónico', actions: 'Acciones' },
  actions: { startTicket: 'Iniciar ticket', edit: 'Editar', delete: 'Eliminar' },
  modal: {
    addTitle: 'Agregar contacto',
    editTitle: 'Editar contacto',
    name: 'Nombre',
    number: 'Número de WhatsApp',
    email: 'Correo electrónico',
    extraInfo: 'Información adicional',
    extraName: 'Campo',
    extraValue: 'Valor',
    addExtra: 'Agregar campo',
    removeExtra: 'Quitar campo',
  },
  importResult: {
    title: 'Resultado de la importación',
    created_one: '{{count}} contacto creado',
    created_other: '{{count}} contactos creados',
    errors_one: '{{count}} contacto no importado',
    errors_other: '{{count}} contactos no importados',
    fields: {
      name: 'Nombre: de 2 a 50 caracteres',
      number: 'Número de WhatsApp: de 8 a 50 dígitos',
      email: 'Correo: dirección no válida (déjelo vacío si no hay)',
      unknown: 'una columna tiene un valor no válido',
    },
  },
  confirmDelete: {
    title: '¿Eliminar el contacto {{name}}?',
    body: 'Se perderán todas las interacciones de este contacto.',
  },
  ticketOwned: 'Este contacto ya tiene un ticket con {{user}} en la cola {{queue}}.',
  noQueue: 'sin cola',
  toasts: { saved: 'Contacto guardado.', deleted: 'Contacto eliminado.' },
};

export default es;
