import { useTranslation } from 'react-i18next';
import { PlaceholderPage } from '../../../components/placeholder-page';

/** /messages-api. */
export default function MessagesApiPage() {
  const { t } = useTranslation('messages-api');
  return <PlaceholderPage title={t('title')} />;
}
