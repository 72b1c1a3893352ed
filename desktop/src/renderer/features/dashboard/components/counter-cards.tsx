import type { ReactNode } from 'react';
import { Text, makeStyles, tokens } from '@fluentui/react-components';
import {
  CheckmarkCircle24Regular,
  Clock24Regular,
  HourglassHalf24Regular,
  PersonAdd24Regular,
  PersonChat24Regular,
  Timer24Regular,
} from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import type { DashboardCounters } from '../api/dashboard';
import { formatMinutes } from './format';

const useStyles = makeStyles({
  grid: { display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(170px, 1fr))', gap: tokens.spacingHorizontalM },
  card: {
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalM,
    padding: tokens.spacingHorizontalL,
    backgroundColor: tokens.colorNeutralBackground1,
    borderRadius: tokens.borderRadiusLarge,
    boxShadow: tokens.shadow4,
  },
  icon: { fontSize: '32px', color: tokens.colorBrandForeground1, display: 'flex' },
  text: { display: 'flex', flexDirection: 'column', minWidth: 0 },
  label: { color: tokens.colorNeutralForeground3 },
});

function Counter({ id, icon, label, value }: { id: string; icon: ReactNode; label: string; value: string }) {
  const styles = useStyles();
  return (
    <div className={styles.card} data-testid={`counter-${id}`}>
      <span className={styles.icon}>{icon}</span>
      <div className={styles.text}>
        <Text size={200} className={styles.label}>
          {label}
        </Text>
        <Text size={600} weight="semibold">
          {value}
        </Text>
      </div>
    </div>
  );
}

/** In talk, waiting, finished, new contacts, and the two average times (spec 01 section 2). */
export function CounterCards({ counters }: { counters: DashboardCounters | undefined }) {
  const styles = useStyles();
  const { t } = useTranslation('dashboard');
  const n = (value: number | undefined) => (value === undefined ? '–' : String(value));
  const time = (value: number | undefined) => (value === undefined ? '–' : formatMinutes(value));
  return (
    <div className={styles.grid}>
      <Counter id="happening" icon={<PersonChat24Regular />} label={t('counters.happening')} value={n(counters?.supportHappening)} />
      <Counter id="pending" icon={<HourglassHalf24Regular />} label={t('counters.pending')} value={n(counters?.supportPending)} />
      <Counter id="finished" icon={<CheckmarkCircle24Regular />} label={t('counters.finished')} value={n(counters?.supportFinished)} />
      <Counter id="leads" icon={<PersonAdd24Regular />} label={t('counters.leads')} value={n(counters?.leads)} />
      <Counter id="support-time" icon={<Timer24Regular />} label={t('counters.avgSupportTime')} value={time(counters?.avgSupportTime)} />
      <Counter id="wait-time" icon={<Clock24Regular />} label={t('counters.avgWaitTime')} value={time(counters?.avgWaitTime)} />
    </div>
  );
}
