/** Strings of the flowbuilder feature (namespace 'flowbuilder'): useTranslation('flowbuilder'). */
const en = {
  title: 'Conversation flows',
  editorTitle: 'Flow builder',
};

export default en;
