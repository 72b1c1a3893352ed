import { useTranslation } from 'react-i18next';
import { PlaceholderPage } from '../../../components/placeholder-page';

/** /prompts. */
export default function PromptsPage() {
  const { t } = useTranslation('prompts');
  return <PlaceholderPage title={t('title')} />;
}
