import type { Translation } from '../../../i18n/types';
import type en from './en';

const es: Translation<typeof en> = {
  title: 'Campañas de flujo',
  search: 'Buscar campañas de flujo',
  add: 'Agregar',
  empty: 'Aún no hay campañas de flujo',
  columns: { name: 'Nombre', phrase: 'Frase', flow: 'Flujo', connection: 'Conexión', status: 'Estado', actions: 'Acciones' },
  status: { active: 'Activo', inactive: 'Desactivado' },
  modal: {
    addTitle: 'Agregar campaña de flujo',
    editTitle: 'Editar campaña de flujo',
    name: 'Nombre',
    flow: 'Flujo',
    connection: 'Conexión',
    pick: 'Elige',
    phrase: 'Frase',
    phraseHint: 'Comparada sin mayúsculas, acentos ni espacios de más.',
    contains: 'También cuando el mensaje contiene la frase',
    active: 'Activo',
    required: 'Obligatorio',
  },
  toasts: { saved: 'Campaña de flujo guardada.', deleted: 'Campaña de flujo eliminada.' },
  confirmDelete: { title: '¿Eliminar la campaña de flujo {{name}}?', body: 'Su frase ya no inicia el flujo. No se puede deshacer.' },
};

export default es;
