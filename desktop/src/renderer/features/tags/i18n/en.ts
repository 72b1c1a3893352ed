/** Strings of the tags feature (namespace 'tags'): useTranslation('tags'). */
const en = {
  title: 'Tags',
};

export default en;
