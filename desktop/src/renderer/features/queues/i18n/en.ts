/** Strings of the queues feature (namespace 'queues'): useTranslation('queues'). */
const en = {
  title: 'Queues & chatbot',
};

export default en;
