import { useTranslation } from 'react-i18next';
import { PlaceholderPage } from '../../../components/placeholder-page';

/** /kanban. */
export default function KanbanPage() {
  const { t } = useTranslation('kanban');
  return <PlaceholderPage title={t('title')} />;
}
