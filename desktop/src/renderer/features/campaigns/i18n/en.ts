/** Strings of the campaigns feature (namespace 'campaigns'): useTranslation('campaigns'). */
const en = {
  title: 'Campaigns',
  reportTitle: 'Campaign report',
  configTitle: 'Campaign settings',
};

export default en;
