/** Strings of the dashboard feature (namespace 'dashboard'): useTranslation('dashboard'). */
const en = {
  title: 'Dashboard',
};

export default en;
