/** Strings of the schedules feature (namespace 'schedules'): useTranslation('schedules'). */
const en = {
  title: 'Schedules',
};

export default en;
