import type { Translation } from '../../../i18n/types';
import type en from './en';

const pt: Translation<typeof en> = {
  title: 'Fluxos de conversa',
  editorTitle: 'Construtor de fluxo',
};

export default pt;
