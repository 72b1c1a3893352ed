/** Strings of the contact-lists feature (namespace 'contact-lists'): useTranslation('contact-lists'). */
const en = {
  title: 'Contact lists',
  itemsTitle: 'Contacts in the list',
};

export default en;
