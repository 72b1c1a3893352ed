import type { Translation } from '../../../i18n/types';
import type en from './en';

const es: Translation<typeof en> = {
  title: 'Listas de contactos',
  search: 'Buscar listas',
  add: 'Agregar lista',
  empty: 'Aún no hay listas de contactos',
  columns: { name: 'Nombre', contacts: 'Contactos', actions: 'Acciones' },
  counts: {
    valid: '{{count}} en WhatsApp',
    invalid: '{{count}} fuera de WhatsApp',
    unchecked: '{{count}} sin verificar',
  },
  fromTag: 'De una etiqueta',
  sample: 'Planilla de ejemplo',
  openItems: 'Abrir los contactos de {{name}}',
  dialog: { addTitle: 'Agregar lista de contactos', editTitle: 'Editar lista de contactos', name: 'Nombre' },
  toasts: { saved: 'Lista de contactos guardada.', deleted: 'Lista de contactos eliminada.' },
  confirmDelete: {
    title: '¿Eliminar la lista {{name}}?',
    body: 'Sus contactos se eliminan con ella. Las campañas que ya enviaron conservan su informe.',
  },
  items: {
    title: 'Contactos de la lista',
    search: 'Buscar contactos',
    add: 'Agregar contacto',
    empty: 'Aún no hay contactos en esta lista. Agregue uno o importe una planilla.',
    columns: { whatsapp: 'WhatsApp', name: 'Nombre', number: 'Número', email: 'Correo', actions: 'Acciones' },
    dialog: { addTitle: 'Agregar contacto', editTitle: 'Editar contacto', name: 'Nombre', number: 'Número', email: 'Correo' },
    toasts: { saved: 'Contacto guardado.', deleted: 'Contacto eliminado.' },
    confirmDelete: { title: '¿Eliminar el contacto {{name}}?', body: 'El contacto sale de esta lista. Esto no se puede deshacer.' },
  },
  back: 'Volver a las listas',
  valid: {
    yes: 'En WhatsApp',
    no: 'Fuera de WhatsApp',
    unchecked: 'Aún sin verificar',
  },
  import: {
    button: 'Importar planilla',
    hint: '.xls o .xlsx con las columnas Nombre, Número y Email (en portugués, inglés o español; mayúsculas y acentos no importan).',
    uploading: 'Enviando la planilla…',
    running: 'Importando: {{processed}} de {{total}} filas',
    pending: 'Importación en cola…',
    done: 'Importación de {{fileName}} terminada: {{created}} agregados, {{duplicates}} duplicados omitidos, {{invalid}} filas inválidas.',
    failed: 'La importación de {{fileName}} falló: {{reason}}',
    invalidReport: 'Descargar las filas inválidas',
    wrongType: 'Solo se pueden importar planillas .xls y .xlsx.',
    reasons: {
      ERR_SPREADSHEET_UNREADABLE: 'el archivo no es una planilla legible, o no tiene columna de número.',
      ERR_PAYLOAD_TOO_LARGE: 'la planilla tiene demasiadas filas.',
      other: 'un error inesperado.',
    },
  },
  check: {
    button: 'Verificar números de nuevo',
    checking: 'Verificando los números en WhatsApp: faltan {{unchecked}} (pocos por segundo, para que el número no sea bloqueado).',
    noConnection: 'Ninguna conexión está conectada: {{unchecked}} números aún no se verificaron. Se verificarán cuando haya una conexión activa.',
    started: 'Los números se están verificando de nuevo.',
  },
};

export default es;
