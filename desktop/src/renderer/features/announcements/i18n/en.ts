/** Strings of the announcements feature (namespace 'announcements'): useTranslation('announcements'). */
const en = {
  title: 'Announcements',
};

export default en;
