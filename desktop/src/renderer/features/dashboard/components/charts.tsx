import { useState, type ReactNode } from 'react';
import { Field, Spinner, Text, makeStyles, tokens } from '@fluentui/react-components';
import { DateInput } from '../../../components/form/date-time-inputs';
import { format, startOfMonth } from 'date-fns';
import { useTranslation } from 'react-i18next';
import { useQuery } from '../../../api/query';
import { toast } from '../../../components/toasts';
import { useAuthStore } from '../../../stores/auth-store';
import { TICKETS_DAY_KEY, TICKETS_USERS_KEY, dashboardApi, isDay } from '../api/dashboard';
import { ColumnChart, RowChart } from './bar-chart';
import { dayBars, hourBars, userBars } from './format';

const useStyles = makeStyles({
  card: {
    display: 'flex',
    flexDirection: 'column',
    gap: tokens.spacingVerticalS,
    padding: tokens.spacingHorizontalL,
    backgroundColor: tokens.colorNeutralBackground1,
    borderRadius: tokens.borderRadiusLarge,
    boxShadow: tokens.shadow4,
    minWidth: 0,
  },
  header: { display: 'flex', alignItems: 'flex-end', justifyContent: 'space-between', gap: tokens.spacingHorizontalM, flexWrap: 'wrap' },
  titles: { display: 'flex', flexDirection: 'column' },
  range: { display: 'flex', gap: tokens.spacingHorizontalS, flexWrap: 'wrap' },
  total: { color: tokens.colorNeutralForeground3 },
  body: { minHeight: '200px', display: 'flex', flexDirection: 'column', justifyContent: 'center' },
});

const today = () => format(new Date(), 'yyyy-MM-dd');

/** A chart's own period: both days valid and in order, or no request. */
const useRange = (initial: string) => {
  const [initialDate, setInitialDate] = useState(initial);
  const [finalDate, setFinalDate] = useState(today);
  const valid = isDay(initialDate) && isDay(finalDate) && initialDate <= finalDate;
  return { initialDate, finalDate, setInitialDate, setFinalDate, valid };
};

function ChartCard(props: {
  title: string;
  testId: string;
  range: ReturnType<typeof useRange>;
  count: number | undefined;
  loading: boolean;
  /** A line under the title (which time zone the chart counts in). */
  note?: string;
  children: ReactNode;
}) {
  const styles = useStyles();
  const { t } = useTranslation('dashboard');
  const { range } = props;
  return (
    <section className={styles.card} data-testid={props.testId} aria-label={props.title}>
      <div className={styles.header}>
        <div className={styles.titles}>
          <Text as="h2" size={400} weight="semibold" style={{ margin: 0 }}>
            {props.title}
          </Text>
          {props.note ? (
            <Text as="p" size={200} className={styles.total} style={{ margin: 0 }} data-testid={`${props.testId}-note`}>
              {props.note}
            </Text>
          ) : null}
          {props.count !== undefined ? (
            <Text as="p" size={200} className={styles.total} style={{ margin: 0 }}>
              {t('charts.total', { count: props.count })}
            </Text>
          ) : null}
        </div>
        <div className={styles.range}>
          <Field label={t('charts.initialDate')} size="small" validationMessage={range.valid ? undefined : t('charts.invalidRange')}>
            <DateInput size="small" value={range.initialDate} onChange={range.setInitialDate} />
          </Field>
          <Field label={t('charts.finalDate')} size="small">
            <DateInput size="small" value={range.finalDate} onChange={range.setFinalDate} />
          </Field>
        </div>
      </div>
      <div className={styles.body}>{props.loading ? <Spinner size="small" /> : props.children}</div>
    </section>
  );
}

/** Tickets (attendance cycles finished) per user; a failure shows userChartError. */
export function TicketsUsersChart() {
  const { t } = useTranslation('dashboard');
  const range = useRange(format(startOfMonth(new Date()), 'yyyy-MM-dd'));
  const { initialDate, finalDate } = range;
  const { data, isLoading } = useQuery(
    [...TICKETS_USERS_KEY, { initialDate, finalDate }],
    async () => {
      try {
        return await dashboardApi.ticketsUsers(initialDate, finalDate);
      } catch (err) {
        toast.error(t('userChartError'));
        throw err;
      }
    },
    { enabled: range.valid, silent: true },
  );
  return (
    <ChartCard title={t('charts.users')} testId="chart-users" range={range} count={data?.count} loading={range.valid && isLoading}>
      <RowChart bars={userBars(data?.data ?? [])} label={t('charts.users')} empty={t('charts.empty')} />
    </ChartCard>
  );
}

/** Tickets (attendance cycles created) per hour of one day, or per day of a range; a failure shows dateChartError. */
export function TicketsDayChart() {
  const { t } = useTranslation('dashboard');
  const timeZone = useAuthStore((s) => s.user?.company?.timezone);
  const range = useRange(today());
  const { initialDate, finalDate } = range;
  const { data, isLoading } = useQuery(
    [...TICKETS_DAY_KEY, { initialDate, finalDate }],
    async () => {
      try {
        return await dashboardApi.ticketsDay(initialDate, finalDate);
      } catch (err) {
        toast.error(t('dateChartError'));
        throw err;
      }
    },
    { enabled: range.valid, silent: true },
  );
  const rows = data?.data ?? [];
  const bars = initialDate === finalDate ? hourBars(rows) : dayBars(rows, initialDate, finalDate);
  const title = initialDate === finalDate ? t('charts.perHour') : t('charts.perDay');
  // The server counts hours and days in the company's time zone, which may not be this browser's.
  const note = timeZone ? t('charts.timeZone', { zone: timeZone }) : t('charts.timeZoneUnnamed');
  return (
    <ChartCard title={title} testId="chart-day" range={range} count={data?.count} loading={range.valid && isLoading} note={note}>
      <ColumnChart bars={bars} label={title} empty={t('charts.empty')} />
    </ChartCard>
  );
}
