import { useTranslation } from 'react-i18next';
import { PlaceholderPage } from '../../../components/placeholder-page';

/** /users. */
export default function UsersPage() {
  const { t } = useTranslation('users');
  return <PlaceholderPage title={t('title')} />;
}
