import type { Translation } from '../../../i18n/types';
import type en from './en';

const es: Translation<typeof en> = {
  title: 'Campañas',
  reportTitle: 'Informe de la campaña',
  configTitle: 'Configuración de campañas',
};

export default es;
