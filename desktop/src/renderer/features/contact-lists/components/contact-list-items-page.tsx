import { useTranslation } from 'react-i18next';
import { PlaceholderPage } from '../../../components/placeholder-page';

/** /contact-lists/:contactListId/contacts (cshow). */
export default function ContactListItemsPage() {
  const { t } = useTranslation('contact-lists');
  return <PlaceholderPage title={t('itemsTitle')} />;
}
