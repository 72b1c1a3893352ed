import { useTranslation } from 'react-i18next';
import { PlaceholderPage } from '../../../components/placeholder-page';

/** /settings. */
export default function SettingsPage() {
  const { t } = useTranslation('settings');
  return <PlaceholderPage title={t('title')} />;
}
