import { useTranslation } from 'react-i18next';
import { PlaceholderPage } from '../../../components/placeholder-page';

/** /flowbuilders (cshow). */
export default function FlowBuildersPage() {
  const { t } = useTranslation('flowbuilder');
  return <PlaceholderPage title={t('title')} />;
}
