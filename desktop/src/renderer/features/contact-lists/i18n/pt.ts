import type { Translation } from '../../../i18n/types';
import type en from './en';

const pt: Translation<typeof en> = {
  title: 'Listas de contatos',
  itemsTitle: 'Contatos da lista',
};

export default pt;
