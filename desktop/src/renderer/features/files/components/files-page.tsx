import { useTranslation } from 'react-i18next';
import { PlaceholderPage } from '../../../components/placeholder-page';

/** /files. */
export default function FilesPage() {
  const { t } = useTranslation('files');
  return <PlaceholderPage title={t('title')} />;
}
