/** Strings of the connections feature (namespace 'connections'): useTranslation('connections'). */
const en = {
  title: 'Connections',
};

export default en;
