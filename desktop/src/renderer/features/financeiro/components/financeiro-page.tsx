import { useState } from 'react';
import {
  Badge,
  Button,
  Input,
  Table,
  TableBody,
  TableCell,
  TableHeader,
  TableHeaderCell,
  TableRow,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { Money20Regular, Search20Regular } from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { queryClient, usePagedQuery } from '../../../api/query';
import { useRealtimeEvent } from '../../../api/socket';
import { ListBody } from '../../../components/list-body';
import { PageContainer, PageContent } from '../../../components/page-container';
import { PageHeader } from '../../../components/page-header';
import { useDebouncedValue } from '../../../hooks/use-debounced-value';
import { formatDate } from '../../../i18n/format';
import { INVOICES_KEY, invoicesApi, type Invoice } from '../api/invoices';
import { formatBrl, invoiceStatus, type InvoiceDisplayStatus } from './invoice-status';

const useStyles = makeStyles({
  scroller: { height: '100%', overflow: 'auto' },
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

/** Within this many pixels of the bottom the next page loads (spec 01 section 9). */
const NEXT_PAGE_PX = 100;

/**
 * /financeiro: the company's invoices. An unpaid invoice past its due date shows Expired and its row is
 * highlighted; unpaid ones have a Pay button, which opens the checkout on the subscription screen.
 */
export default function FinanceiroPage() {
  const styles = useStyles();
  const { t } = useTranslation('financeiro');
  const navigate = useNavigate();
  const [search, setSearch] = useState('');
  const searchParam = useDebouncedValue(search.trim().toLowerCase());
  const { items, hasMore, isLoading, loadMore } = usePagedQuery<Invoice>([...INVOICES_KEY, { searchParam }], (page) =>
    invoicesApi.page(searchParam, page),
  );

  // A payment marks an invoice paid (and may let the next one be issued).
  useRealtimeEvent('payment', () => void queryClient.invalidateQueries({ queryKey: INVOICES_KEY }));

  return (
    <PageContainer>
      <PageHeader
        title={t('title')}
        actions={
          <Input
            contentBefore={<Search20Regular />}
            placeholder={t('search')}
            aria-label={t('search')}
            value={search}
            onChange={(_, d) => setSearch(d.value)}
          />
        }
      />
      <PageContent>
        <div
          className={styles.scroller}
          data-testid="invoices-scroller"
          onScroll={(e) => {
            const el = e.currentTarget;
            if (hasMore && el.scrollHeight - (el.scrollTop + el.clientHeight) < NEXT_PAGE_PX) void loadMore();
          }}
        >
          <ListBody loading={isLoading} empty={items.length === 0} emptyTitle={t('empty')}>
            <Table aria-label={t('title')}>
              <TableHeader>
                <TableRow>
                  <TableHeaderCell style={{ width: 70 }}>{t('columns.id')}</TableHeaderCell>
                  <TableHeaderCell>{t('columns.detail')}</TableHeaderCell>
                  <TableHeaderCell>{t('columns.value')}</TableHeaderCell>
                  <TableHeaderCell>{t('columns.dueDate')}</TableHeaderCell>
                  <TableHeaderCell>{t('columns.status')}</TableHeaderCell>
                  <TableHeaderCell style={{ width: 120 }}>{t('columns.actions')}</TableHeaderCell>
                </TableRow>
              </TableHeader>
              <TableBody>
                {items.map((invoice) => {
                  const status = invoiceStatus(invoice);
                  return (
                    <TableRow
                      key={invoice.id}
                      data-testid={`invoice-row-${invoice.id}`}
                      data-status={status}
                      className={status === 'expired' ? styles.overdue : undefined}
                    >
                      <TableCell className={styles.muted}>{invoice.id}</TableCell>
                      <TableCell>{invoice.detail}</TableCell>
                      <TableCell>{formatBrl(invoice.value)}</TableCell>
                      <TableCell>{formatDate(invoice.dueDate)}</TableCell>
                      <TableCell>
                        <Badge appearance="tint" color={BADGE_COLOR[status]}>
                          {t(`status.${status}`)}
                        </Badge>
                      </TableCell>
                      <TableCell>
                        {status === 'paid' ? (
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
                        )}
                      </TableCell>
                    </TableRow>
                  );
                })}
              </TableBody>
            </Table>
          </ListBody>
        </div>
      </PageContent>
    </PageContainer>
  );
}
