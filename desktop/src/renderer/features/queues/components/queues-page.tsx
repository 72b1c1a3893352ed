import { useTranslation } from 'react-i18next';
import { PlaceholderPage } from '../../../components/placeholder-page';

/** /queues. */
export default function QueuesPage() {
  const { t } = useTranslation('queues');
  return <PlaceholderPage title={t('title')} />;
}
