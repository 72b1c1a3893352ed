import { useTranslation } from 'react-i18next';
import { PlaceholderPage } from '../../../components/placeholder-page';

/** /contact-lists (cshow). */
export default function ContactListsPage() {
  const { t } = useTranslation('contact-lists');
  return <PlaceholderPage title={t('title')} />;
}
