import { useTranslation } from 'react-i18next';
import { PlaceholderPage } from '../../../components/placeholder-page';

/** /flowbuilder/:id? (cshow). */
export default function FlowBuilderPage() {
  const { t } = useTranslation('flowbuilder');
  return <PlaceholderPage title={t('editorTitle')} />;
}
