/** Strings of the settings feature (namespace 'settings'): useTranslation('settings'). */
const en = {
  title: 'Settings',
};

export default en;
