import { useTranslation } from 'react-i18next';
import { PlaceholderPage } from '../../../components/placeholder-page';

/** /announcements. */
export default function AnnouncementsPage() {
  const { t } = useTranslation('announcements');
  return <PlaceholderPage title={t('title')} />;
}
