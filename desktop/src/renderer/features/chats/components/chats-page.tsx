import { useTranslation } from 'react-i18next';
import { PlaceholderPage } from '../../../components/placeholder-page';

/** /chats/:id?. */
export default function ChatsPage() {
  const { t } = useTranslation('chats');
  return <PlaceholderPage title={t('title')} />;
}
