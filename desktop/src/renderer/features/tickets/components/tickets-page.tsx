import { useTranslation } from 'react-i18next';
import { PlaceholderPage } from '../../../components/placeholder-page';

/** /tickets/:ticketId? (the segment is the ticket uuid). */
export default function TicketsPage() {
  const { t } = useTranslation('tickets');
  return <PlaceholderPage title={t('title')} />;
}
