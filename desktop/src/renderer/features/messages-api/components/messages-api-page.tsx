import { Button, Link, Spinner, Text, makeStyles, tokens } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { useQuery } from '../../../api/query';
import { PageContainer, PageContent } from '../../../components/page-container';
import { PageHeader } from '../../../components/page-header';
import { OPENAPI_KEY, apiBaseUrl, messagesApi } from '../api/messages-api';
import { CodeBlock, OpenApiView } from './openapi-view';
import { SendTestForms } from './send-test-forms';

const useStyles = makeStyles({
  content: {
    display: 'grid',
    gridTemplateColumns: 'minmax(0, 3fr) minmax(300px, 2fr)',
    gap: tokens.spacingHorizontalXXL,
    alignItems: 'start',
    // One column in a narrow window: the documentation, then the forms.
    '@media (max-width: 1023px)': { gridTemplateColumns: 'minmax(0, 1fr)' },
  },
  docs: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM, minWidth: 0 },
  facts: {
    display: 'grid',
    gridTemplateColumns: 'repeat(auto-fit, minmax(240px, 1fr))',
    gap: tokens.spacingHorizontalM,
  },
  fact: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalXS,
    padding: tokens.spacingHorizontalM,
    borderRadius: tokens.borderRadiusMedium,
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    minWidth: 0,
  },
  forms: {
    position: 'sticky',
    top: 0,
    padding: tokens.spacingHorizontalM,
    borderRadius: tokens.borderRadiusMedium,
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    backgroundColor: tokens.colorNeutralBackground2,
    minWidth: 0,
    '@media (max-width: 1023px)': { position: 'static' },
  },
  state: { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'center', padding: tokens.spacingVerticalM },
});

/** /messages-api: the external send endpoint's documentation, from its OpenAPI document, and test forms. */
export default function MessagesApiPage() {
  const styles = useStyles();
  const { t } = useTranslation('messages-api');
  const doc = useQuery(OPENAPI_KEY, messagesApi.openapi, { staleTime: Infinity, silent: true });
  const base = apiBaseUrl();
  const documentUrl = `${base}/api/openapi.json`;

  return (
    <PageContainer>
      <PageHeader title={t('title')} subtitle={t('subtitle')} />
      <PageContent className={styles.content}>
        <div className={styles.docs}>
          <div className={styles.facts} data-testid="api-facts">
            <div className={styles.fact}>
              <Text weight="semibold">{t('intro.endpoint')}</Text>
              <CodeBlock code={`POST ${base}/api/messages/send\nGET  ${base}/api/messages/{id}`} testId="api-endpoint" />
            </div>
            <div className={styles.fact}>
              <Text weight="semibold">{t('intro.auth')}</Text>
              <Text size={200}>{t('intro.authText')}</Text>
            </div>
            <div className={styles.fact}>
              <Text weight="semibold">{t('intro.idempotency')}</Text>
              <Text size={200}>{t('intro.idempotencyText')}</Text>
            </div>
            <div className={styles.fact}>
              <Text weight="semibold">{t('intro.rateLimit')}</Text>
              <Text size={200}>{t('intro.rateLimitText')}</Text>
            </div>
            <div className={styles.fact}>
              <Text weight="semibold">{t('intro.document')}</Text>
              <Text size={200}>
                {t('intro.documentText')}{' '}
                <Link href={documentUrl} target="_blank" rel="noreferrer" data-testid="api-openapi-link">
                  /api/openapi.json
                </Link>
              </Text>
            </div>
          </div>
          {doc.data ? (
            <OpenApiView doc={doc.data} base={base} />
          ) : doc.status === 'error' ? (
            <div className={styles.state} data-testid="api-doc-error">
              <Text>{t('doc.failed')}</Text>
              <Button onClick={() => void doc.refetch()}>{t('doc.retry')}</Button>
            </div>
          ) : (
            <div className={styles.state}>
              <Spinner size="tiny" label={t('doc.loading')} />
            </div>
          )}
        </div>
        <div className={styles.forms}>
          <SendTestForms />
        </div>
      </PageContent>
    </PageContainer>
  );
}
