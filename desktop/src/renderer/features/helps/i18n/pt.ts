import type { Translation } from '../../../i18n/types';
import type en from './en';

const pt: Translation<typeof en> = {
  title: 'Ajuda',
  empty: 'Nenhum vídeo de ajuda ainda.',
  noVideo: 'Nenhum vídeo reproduzível',
};

export default pt;
