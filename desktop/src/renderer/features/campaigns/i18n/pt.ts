import type { Translation } from '../../../i18n/types';
import type en from './en';

const pt: Translation<typeof en> = {
  title: 'Campanhas',
  reportTitle: 'Relatório da campanha',
  configTitle: 'Configurações de campanhas',
};

export default pt;
