import { useTranslation } from 'react-i18next';
import { PlaceholderPage } from '../../../components/placeholder-page';

/** /tags. */
export default function TagsPage() {
  const { t } = useTranslation('tags');
  return <PlaceholderPage title={t('title')} />;
}
