import { useTranslation } from 'react-i18next';
import { PlaceholderPage } from '../../../components/placeholder-page';

/** /quick-messages. */
export default function QuickMessagesPage() {
  const { t } = useTranslation('quick-messages');
  return <PlaceholderPage title={t('title')} />;
}
