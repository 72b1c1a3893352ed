/** Strings of the chats feature (namespace 'chats'): useTranslation('chats'). */
const en = {
  title: 'Internal chat',
};

export default en;
