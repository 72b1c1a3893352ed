import { useTranslation } from 'react-i18next';
import { PlaceholderPage } from '../../../components/placeholder-page';

/** /todolist. */
export default function TodoListPage() {
  const { t } = useTranslation('todolist');
  return <PlaceholderPage title={t('title')} />;
}
