/** Strings of the messages-api feature (namespace 'messages-api'): useTranslation('messages-api'). */
const en = {
  title: 'Messages API',
};

export default en;
