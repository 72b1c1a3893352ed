import { useTranslation } from 'react-i18next';
import { PlaceholderPage } from '../../../components/placeholder-page';

/** /subscription. */
export default function SubscriptionPage() {
  const { t } = useTranslation('subscription');
  return <PlaceholderPage title={t('title')} />;
}
