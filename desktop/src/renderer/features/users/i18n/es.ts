import type { Translation } from '../../../i18n/types';
import type en from './en';

const es: Translation<typeof en> = {
  title: 'Usuarios',
  search: 'Buscar usuarios',
  add: 'Agregar usuario',
  empty: 'No se encontraron usuarios.',
  columns: { id: 'ID', name: 'Nombre', email: 'Correo electrónico', profile: 'Perfil', actions: 'Acciones' },
  fields: {
    name: 'Nombre',
    email: 'Correo electrónico',
    password: 'Contraseña',
    passwordHint: 'Déjela en blanco para mantener la contraseña actual',
    profile: 'Perfil',
    queues: 'Colas',
    connection: 'Conexión predeterminada',
    noConnection: 'Ninguna',
    allTicket: 'Ver tickets sin cola',
    language: 'Idioma',
  },
  profiles: { admin: 'Administrador', user: 'Usuario' },
  allTicket: { enabled: 'Habilitado', desabled: 'Deshabilitado' },
  modal: { addTitle: 'Agregar usuario', editTitle: 'Editar usuario' },
  confirmDelete: {
    title: '¿Eliminar el usuario {{name}}?',
    body: 'Los tickets abiertos del usuario vuelven a pendientes.',
  },
  sessions: {
    title: 'Sesiones',
    allowed_one: 'Tu empresa permite una sesión por usuario: iniciar sesión en otro lugar cierra esta.',
    allowed_other: 'Tu empresa permite {{count}} sesiones por usuario a la vez; iniciar una más cierra la usada hace más tiempo.',
    current: 'Este dispositivo',
    lastUsed: 'Usada por última vez el {{at}}',
    desktop: 'Aplicación Atrium',
    on: '{{app}} en {{os}}',
    unknownBrowser: 'Navegador',
    end: 'Cerrar',
    ended: 'Sesión cerrada.',
  },
  toasts: { saved: 'Usuario guardado con éxito.', deleted: 'Usuario eliminado con éxito.', profileSaved: 'Perfil guardado.' },
};

export default es;
