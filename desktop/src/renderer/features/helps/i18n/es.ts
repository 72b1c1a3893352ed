import type { Translation } from '../../../i18n/types';
import type en from './en';

const es: Translation<typeof en> = {
  title: 'Ayuda',
  empty: 'Aún no hay videos de ayuda.',
  noVideo: 'Ningún video reproducible',
};

export default es;
