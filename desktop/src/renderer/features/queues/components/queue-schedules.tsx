import { Text, makeStyles, tokens } from '@fluentui/react-components';
import { TimeInput } from '../../../components/form/date-time-inputs';
import { DEFAULT_QUEUE_SCHEDULES, WEEKDAYS, type WeekdayEn } from '@atrium/shared';
import { useTranslation } from 'react-i18next';
import type { QueueSchedule } from '../api/queues';

const useStyles = makeStyles({
  grid: {
    display: 'grid',
    gridTemplateColumns: 'minmax(120px, 1fr) 130px 130px',
    gap: tokens.spacingHorizontalM,
    alignItems: 'center',
    maxWidth: '520px',
  },
});

/** The seven weekdays, Monday first: the saved hours, the defaults of spec 02 section 9 for days not saved. */
export const fillQueueWeek = (saved: readonly QueueSchedule[] | undefined): QueueSchedule[] =>
  WEEKDAYS.map((d) => {
    const hours = saved?.find((s) => s.weekdayEn === d.weekdayEn) ?? DEFAULT_QUEUE_SCHEDULES.find((s) => s.weekdayEn === d.weekdayEn)!;
    return { weekday: d.weekday, weekdayEn: d.weekdayEn, startTime: hours.startTime, endTime: hours.endTime };
  });

export interface QueueSchedulesProps {
  week: QueueSchedule[];
  onChange: (week: QueueSchedule[]) => void;
  error?: string;
}

/** The attendance-time tab: start and end (HH:MM) per weekday. */
export function QueueSchedules({ week, onChange, error }: QueueSchedulesProps) {
  const styles = useStyles();
  const { t } = useTranslation('queues');
  const set = (index: number, field: 'startTime' | 'endTime', value: string) =>
    onChange(week.map((d, i) => (i === index ? { ...d, [field]: value } : d)));

  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: 12 }} data-testid="queue-schedules">
      <div className={styles.grid}>
        <Text weight="semibold">{t('schedules.weekday')}</Text>
        <Text weight="semibold">{t('schedules.start')}</Text>
        <Text weight="semibold">{t('schedules.end')}</Text>
        {week.map((d, i) => {
          const day = t(`schedules.days.${d.weekdayEn as WeekdayEn}`);
          return (
            <div key={d.weekdayEn} style={{ display: 'contents' }}>
              <Text>{day}</Text>
              <TimeInput
                aria-label={t('schedules.startOf', { day })}
                data-testid={`queue-schedule-${d.weekdayEn}-start`}
                value={d.startTime}
                onChange={(v) => set(i, 'startTime', v)}
              />
              <TimeInput
                aria-label={t('schedules.endOf', { day })}
                data-testid={`queue-schedule-${d.weekdayEn}-end`}
                value={d.endTime}
                onChange={(v) => set(i, 'endTime', v)}
              />
            </div>
          );
        })}
      </div>
      {error ? (
        <Text role="alert" style={{ color: tokens.colorPaletteRedForeground1 }} data-testid="queue-schedules-error">
          {error}
        </Text>
      ) : null}
    </div>
  );
}
