import { useTranslation } from 'react-i18next';
import { PlaceholderPage } from '../../../components/placeholder-page';

/** / (admins only). */
export default function DashboardPage() {
  const { t } = useTranslation('dashboard');
  return <PlaceholderPage title={t('title')} />;
}
