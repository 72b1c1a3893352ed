/** Strings of the queue-integration feature (namespace 'queue-integration'): useTranslation('queue-integration'). */
const en = {
  title: 'Integrations',
};

export default en;
