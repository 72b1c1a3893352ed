/** Strings of the tickets feature (namespace 'tickets'): useTranslation('tickets'). */
const en = {
  title: 'Tickets',
};

export default en;
