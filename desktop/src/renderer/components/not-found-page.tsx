import { useLocation } from 'react-router';
import { useTranslation } from 'react-i18next';
import { DocumentQuestionMark24Regular } from '@fluentui/react-icons';
import { AppLink } from './app-link';
import { EmptyState } from './empty-state';
import { PageContainer, PageContent } from './page-container';
import { PageHeader } from './page-header';

/**
 * An address the app does not know: said so, with the address and a way back, instead of a silent jump to
 * the dashboard (a mistyped or outdated link looked like it had worked).
 */
export default function NotFoundPage() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  return (
    <PageContainer>
      <PageHeader title={t('notFound.title')} />
      <PageContent>
        <div data-testid="not-found">
          <EmptyState
            icon={<DocumentQuestionMark24Regular />}
            title={t('notFound.title')}
            description={t('notFound.text', { path: pathname })}
            action={<AppLink to="/">{t('notFound.back')}</AppLink>}
          />
        </div>
      </PageContent>
    </PageContainer>
  );
}
