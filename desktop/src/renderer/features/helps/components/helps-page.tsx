import { useTranslation } from 'react-i18next';
import { PlaceholderPage } from '../../../components/placeholder-page';

/** /helps. */
export default function HelpsPage() {
  const { t } = useTranslation('helps');
  return <PlaceholderPage title={t('title')} />;
}
