import { useTranslation } from 'react-i18next';
import { PlaceholderPage } from '../../../components/placeholder-page';

/** /connections. */
export default function ConnectionsPage() {
  const { t } = useTranslation('connections');
  return <PlaceholderPage title={t('title')} />;
}
