import { useTranslation } from 'react-i18next';
import { PlaceholderPage } from '../../../components/placeholder-page';

/** /campaign/:campaignId/report (cshow). */
export default function CampaignReportPage() {
  const { t } = useTranslation('campaigns');
  return <PlaceholderPage title={t('reportTitle')} />;
}
