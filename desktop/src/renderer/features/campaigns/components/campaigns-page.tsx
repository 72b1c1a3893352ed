import { useTranslation } from 'react-i18next';
import { PlaceholderPage } from '../../../components/placeholder-page';

/** /campaigns (cshow). */
export default function CampaignsPage() {
  const { t } = useTranslation('campaigns');
  return <PlaceholderPage title={t('title')} />;
}
