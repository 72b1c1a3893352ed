import type { ReactNode } from 'react';
import { Wrench24Regular } from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import { EmptyState } from './empty-state';
import { PageContainer, PageContent } from './page-container';
import { PageHeader } from './page-header';

/** The stand-in a feature's page renders until the feature is built. */
export function PlaceholderPage({ title, children }: { title: string; children?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <PageContainer>
      <PageHeader title={title} />
      <PageContent>
        <EmptyState icon={<Wrench24Regular />} title={title} description={t('placeholder.body')} />
        {children}
      </PageContent>
    </PageContainer>
  );
}
