import type { Translation } from '../../../i18n/types';
import type en from './en';

const es: Translation<typeof en> = {
  title: 'Usuarios',
  fields: {
    name: 'Nombre',
    email: 'Correo electrónico',
    profile: 'Perfil',
  },
};

export default es;
