/** Strings of the phrase-lists feature (namespace 'phrase-lists'): useTranslation('phrase-lists'). */
const en = {
  title: 'Flow campaigns',
};

export default en;
