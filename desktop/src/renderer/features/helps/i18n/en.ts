/** Strings of the helps feature (namespace 'helps'): useTranslation('helps'). */
const en = {
  title: 'Help',
  empty: 'No help videos yet.',
  noVideo: 'No playable video',
};

export default en;
