/** Strings of the files feature (namespace 'files'): useTranslation('files'). */
const en = {
  title: 'File lists',
};

export default en;
