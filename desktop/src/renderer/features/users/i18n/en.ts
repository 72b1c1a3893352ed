/** Strings of the users feature (namespace 'users'): useTranslation('users'). */
const en = {
  title: 'Users',
  fields: {
    name: 'Name',
    email: 'Email',
    profile: 'Profile',
  },
};

export default en;
