/** Strings of the contacts feature (namespace 'contacts'): useTranslation('contacts'). */
const en = {
  title: 'Contacts',
};

export default en;
