/** Strings of the helps feature (namespace 'helps'): useTranslation('helps'). */
const en = {
  title: 'Help',
};

export default en;
