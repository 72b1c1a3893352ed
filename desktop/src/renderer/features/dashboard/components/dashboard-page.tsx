import { useState } from 'react';
import { Button, Spinner, makeStyles, tokens } from '@fluentui/react-components';
import { ArrowClockwise20Regular } from '@fluentui/react-icons';
import { format, startOfMonth } from 'date-fns';
import { useTranslation } from 'react-i18next';
import { queryClient, useQuery } from '../../../api/query';
import { PageContainer } from '../../../components/page-container';
import { PageHeader } from '../../../components/page-header';
import {
  DASHBOARD_KEY,
  TICKETS_DAY_KEY,
  TICKETS_USERS_KEY,
  dashboardApi,
  dashboardParams,
  type DashboardFilter,
  type DashboardParams,
} from '../api/dashboard';
import { AttendantsTable } from './attendants-table';
import { TicketsDayChart, TicketsUsersChart } from './charts';
import { CounterCards } from './counter-cards';
import { DashboardFilterBar } from './dashboard-filter';

const useStyles = makeStyles({
  body: { flex: 1, minHeight: 0, overflowY: 'auto', display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalL },
  charts: { display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(420px, 1fr))', gap: tokens.spacingHorizontalM },
});

/** This month so far, as the family's dashboard opens. */
const initialFilter = (): DashboardFilter => ({
  type: 'date',
  days: 0,
  dateFrom: format(startOfMonth(new Date()), 'yyyy-MM-dd'),
  dateTo: format(new Date(), 'yyyy-MM-dd'),
});

/** / (admins only): counters, attendants and the two charts. */
export default function DashboardPage() {
  const styles = useStyles();
  const { t } = useTranslation('dashboard');
  const [initial] = useState(initialFilter);
  const [params, setParams] = useState<DashboardParams>(() => dashboardParams(initial)!);
  const { data, isLoading, isFetching, refetch } = useQuery([...DASHBOARD_KEY, params], () => dashboardApi.get(params));
  // Applying the filter again reloads it.
  const apply = (next: DashboardParams) => {
    if (JSON.stringify(next) === JSON.stringify(params)) void refetch();
    else setParams(next);
  };

  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: DASHBOARD_KEY });
    void queryClient.invalidateQueries({ queryKey: TICKETS_USERS_KEY });
    void queryClient.invalidateQueries({ queryKey: TICKETS_DAY_KEY });
  };

  return (
    <PageContainer>
      <PageHeader
        title={t('title')}
        actions={
          <Button
            icon={isFetching ? <Spinner size="tiny" /> : <ArrowClockwise20Regular />}
            disabled={isFetching}
            data-testid="dashboard-refresh"
            onClick={refresh}
          >
            {t('refresh')}
          </Button>
        }
      />
      <div className={styles.body}>
        <DashboardFilterBar initial={initial} onApply={apply} />
        <CounterCards counters={data?.counters} />
        {isLoading ? <Spinner /> : <AttendantsTable attendants={data?.attendants ?? []} />}
        <div className={styles.charts}>
          <TicketsUsersChart />
          <TicketsDayChart />
        </div>
      </div>
    </PageContainer>
  );
}
