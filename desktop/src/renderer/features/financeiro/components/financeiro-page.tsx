import { Badge, Button, makeStyles, tokens } from '@fluentui/react-components';
import { Money20Regular } from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { queryClient, usePagedQuery } from '../../../api/query';
import { useRealtimeEvent } from '../../../api/socket';
import { DataTable, InfiniteList, ListHeader, useSearch, type Column } from '../../../components/list-kit';
import { PageContainer, PageContent } from '../../../components/page-container';
import { formatDate } from '../../../i18n/format';
import { INVOICES_KEY, invoicesApi, type Invoice } from '../api/invoices';
import { formatBrl, invoiceStatus, type InvoiceDisplayStatus } from './invoice-status';

const useStyles = makeStyles({
  overdue: {
    backgroundColor: tokens.colorPaletteRedBackground1,
    ':hover': { backgroundColor: tokens.colorPaletteRedBackground2 },
  },
  muted: { color: tokens.colorNeutralForeground3 },
});

const BADGE_COLOR: Record<InvoiceDisplayStatus, 'success' | 'danger' | 'informative'> = {
  paid: 'success',
  expired: 'danger',
  open: 'informative',
};

/**
 * /financeiro: the company's invoices. An unpaid invoice past its due date shows Expired and its row is
 * highlighted; unpaid ones have a Pay button, which opens the checkout on the subscription screen.
 */
export default function FinanceiroPage() {
  const styles = useStyles();
  const { t } = useTranslation('financeiro');
  const navigate = useNavigate();
  const { search, setSearch, searchParam } = useSearch({ lowerCase: true });
  const list = usePagedQuery<Invoice>([...INVOICES_KEY, { searchParam }], (page) => invoicesApi.page(searchParam, page));

  // A payment marks an invoice paid (and may let the next one be issued).
  useRealtimeEvent('payment', () => void queryClient.invalidateQueries({ queryKey: INVOICES_KEY }));

  const columns: Column<Invoice>[] = [
    { id: 'id', header: t('columns.id'), width: 70, secondary: true, cellStyle: { color: tokens.colorNeutralForeground3 }, cell: (i) => i.id },
    { id: 'detail', header: t('columns.detail'), secondary: true, cell: (i) => i.detail },
    { id: 'value', header: t('columns.value'), cell: (i) => formatBrl(i.value) },
    { id: 'dueDate', header: t('columns.dueDate'), cell: (i) => formatDate(i.dueDate) },
    {
      id: 'status',
      header: t('columns.status'),
      cell: (i) => {
        const status = invoiceStatus(i);
        return (
          <Badge appearance="tint" color={BADGE_COLOR[status]}>
            {t(`status.${status}`)}
          </Badge>
        );
      },
    },
  ];

  return (
    <PageContainer>
      <ListHeader title={t('title')} search={{ value: search, onChange: setSearch, label: t('search'), testId: 'invoices-search' }} />
      <PageContent>
        <InfiniteList
          list={list}
          emptyTitle={t('empty')}
          testId="invoices-scroller"
        >
          <DataTable
            label={t('title')}
            rows={list.items}
            columns={columns}
            rowKey={(i) => i.id}
            rowTestId={(i) => `invoice-row-${i.id}`}
            rowProps={(i) => {
              const status = invoiceStatus(i);
              return { 'data-status': status, className: status === 'expired' ? styles.overdue : undefined };
            }}
            actionsHeader={t('columns.actions')}
            actionsWidth={120}
            actions={(invoice) =>
              invoiceStatus(invoice) === 'paid' ? (
                <span className={styles.muted}>{t('paid')}</span>
              ) : (
                <Button
                  size="small"
                  appearance="primary"
                  icon={<Money20Regular />}
                  data-testid={`invoice-pay-${invoice.id}`}
                  onClick={() => navigate(`/subscription?invoiceId=${invoice.id}`)}
                >
                  {t('pay')}
                </Button>
              )
            }
          />
        </InfiniteList>
      </PageContent>
    </PageContainer>
  );
}
