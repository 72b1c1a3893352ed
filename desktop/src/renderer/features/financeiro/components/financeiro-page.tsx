import { useTranslation } from 'react-i18next';
import { PlaceholderPage } from '../../../components/placeholder-page';

/** /financeiro. */
export default function FinanceiroPage() {
  const { t } = useTranslation('financeiro');
  return <PlaceholderPage title={t('title')} />;
}
