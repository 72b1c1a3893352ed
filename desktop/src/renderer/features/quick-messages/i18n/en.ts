/** Strings of the quick-messages feature (namespace 'quick-messages'): useTranslation('quick-messages'). */
const en = {
  title: 'Quick messages',
};

export default en;
