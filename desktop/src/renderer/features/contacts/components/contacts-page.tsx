import { useTranslation } from 'react-i18next';
import { PlaceholderPage } from '../../../components/placeholder-page';

/** /contacts. */
export default function ContactsPage() {
  const { t } = useTranslation('contacts');
  return <PlaceholderPage title={t('title')} />;
}
