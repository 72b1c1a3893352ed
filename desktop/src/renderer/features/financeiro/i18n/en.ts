/** Strings of the financeiro feature (namespace 'financeiro'): useTranslation('financeiro'). */
const en = {
  title: 'Billing',
};

export default en;
