import type { Translation } from '../../../i18n/types';
import type en from './en';

const es: Translation<typeof en> = {
  title: 'Flujos de conversación',
  editorTitle: 'Constructor de flujos',
};

export default es;
