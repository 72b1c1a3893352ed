import { useTranslation } from 'react-i18next';
import { PlaceholderPage } from '../../../components/placeholder-page';

/** /schedules. */
export default function SchedulesPage() {
  const { t } = useTranslation('schedules');
  return <PlaceholderPage title={t('title')} />;
}
