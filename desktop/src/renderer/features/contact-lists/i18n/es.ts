import type { Translation } from '../../../i18n/types';
import type en from './en';

const es: Translation<typeof en> = {
  title: 'Listas de contactos',
  itemsTitle: 'Contactos de la lista',
};

export default es;
