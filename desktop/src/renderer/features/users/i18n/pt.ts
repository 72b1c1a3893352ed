import type { Translation } from '../../../i18n/types';
import type en from './en';

const pt: Translation<typeof en> = {
  title: 'Usuários',
  fields: {
    name: 'Nome',
    email: 'E-mail',
    profile: 'Perfil',
  },
};

export default pt;
