import { useTranslation } from 'react-i18next';
import { PlaceholderPage } from '../../../components/placeholder-page';

/** /phrase-lists (cshow). */
export default function PhraseListsPage() {
  const { t } = useTranslation('phrase-lists');
  return <PlaceholderPage title={t('title')} />;
}
