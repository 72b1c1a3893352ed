/** Strings of the subscription feature (namespace 'subscription'): useTranslation('subscription'). */
const en = {
  title: 'Subscription',
};

export default en;
