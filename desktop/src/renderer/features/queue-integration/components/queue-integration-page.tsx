import { useTranslation } from 'react-i18next';
import { PlaceholderPage } from '../../../components/placeholder-page';

/** /queue-integration. */
export default function QueueIntegrationPage() {
  const { t } = useTranslation('queue-integration');
  return <PlaceholderPage title={t('title')} />;
}
