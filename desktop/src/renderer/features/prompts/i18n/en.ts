/** Strings of the prompts feature (namespace 'prompts'): useTranslation('prompts'). */
const en = {
  title: 'Open.Ai prompts',
};

export default en;
