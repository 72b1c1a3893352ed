import { useTranslation } from 'react-i18next';
import { PlaceholderPage } from '../../../components/placeholder-page';

/** /campaigns-config (cshow). */
export default function CampaignsConfigPage() {
  const { t } = useTranslation('campaigns');
  return <PlaceholderPage title={t('configTitle')} />;
}
