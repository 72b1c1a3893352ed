import { useMemo } from 'react';
import { Badge, Button, Text, Tooltip, makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { Delete16Regular, Edit16Regular, Eye16Regular } from '@fluentui/react-icons';
import { format, isSameMonth, isToday } from 'date-fns';
import { useTranslation } from 'react-i18next';
import { dateLocale, formatTime } from '../../../i18n/format';
import type { Schedule } from '../api/schedules';
import { dayKey, monthGrid, placeByDay } from '../lib/calendar';

const useStyles = makeStyles({
  grid: {
    display: 'grid',
    gridTemplateColumns: 'repeat(7, minmax(0, 1fr))',
    // The week-day header row sizes to its text; the six week rows share a minimum height.
    gridTemplateRows: 'auto',
    gridAutoRows: 'minmax(96px, auto)',
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
    overflow: 'hidden',
  },
  weekday: {
    padding: tokens.spacingVerticalXS,
    textAlign: 'center',
    fontWeight: tokens.fontWeightSemibold,
    backgroundColor: tokens.colorNeutralBackground2,
    borderBottom: `1px solid ${tokens.colorNeutralStroke2}`,
    textTransform: 'capitalize',
  },
  day: {
    display: 'flex',
    flexDirection: 'column',
    gap: '2px',
    padding: tokens.spacingVerticalXS,
    minWidth: 0,
    borderRight: `1px solid ${tokens.colorNeutralStroke3}`,
    borderBottom: `1px solid ${tokens.colorNeutralStroke3}`,
  },
  outside: { backgroundColor: tokens.colorNeutralBackground3, color: tokens.colorNeutralForeground4 },
  number: { alignSelf: 'flex-end', fontSize: tokens.fontSizeBase200 },
  today: {
    backgroundColor: tokens.colorBrandBackground,
    color: tokens.colorNeutralForegroundOnBrand,
    borderRadius: tokens.borderRadiusCircular,
    padding: '0 6px',
  },
  event: {
    display: 'flex',
    flexDirection: 'column',
    minWidth: 0,
    padding: '1px 4px 3px',
    borderRadius: tokens.borderRadiusSmall,
    backgroundColor: tokens.colorBrandBackground2,
    fontSize: tokens.fontSizeBase200,
  },
  sent: { backgroundColor: tokens.colorPaletteGreenBackground1 },
  failed: { backgroundColor: tokens.colorPaletteRedBackground1 },
  head: { display: 'flex', alignItems: 'center', gap: '2px' },
  time: { flex: 1, fontWeight: tokens.fontWeightSemibold },
  label: { minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
});

export interface ScheduleViewProps {
  month: Date;
  schedules: readonly Schedule[];
  weekStartsOn: 0 | 1 | 2 | 3 | 4 | 5 | 6;
  onEdit: (schedule: Schedule) => void;
  onDelete: (schedule: Schedule) => void;
  canEdit: (schedule: Schedule) => boolean;
  canDelete: (schedule: Schedule) => boolean;
}

/** One schedule inside a day: time and contact name, with edit (or view) and delete icons. */
export function ScheduleEvent({ schedule, onEdit, onDelete, canEdit, canDelete }: Omit<ScheduleViewProps, 'month' | 'schedules' | 'weekStartsOn'> & { schedule: Schedule }) {
  const styles = useStyles();
  const { t } = useTranslation('schedules');
  const name = schedule.contact?.name ?? `#${schedule.contactId}`;
  const editable = canEdit(schedule);
  return (
    <div
      className={mergeClasses(styles.event, schedule.status === 'ENVIADA' && styles.sent, schedule.status === 'ERRO' && styles.failed)}
      data-testid={`schedule-event-${schedule.id}`}
      data-status={schedule.status}
      title={`${formatTime(schedule.sendAt)} ${name} · ${t(`status.${schedule.status}`)}\n${schedule.body}`}
    >
      <div className={styles.head}>
        <Text className={styles.time} size={200}>
          {formatTime(schedule.sendAt)}
        </Text>
        {schedule.status === 'ERRO' ? <Badge size="tiny" color="danger" aria-label={t('status.ERRO')} /> : null}
        <Tooltip content={editable ? t('actions.edit') : t('actions.view')} relationship="label">
          <Button
            size="small"
            appearance="transparent"
            icon={editable ? <Edit16Regular /> : <Eye16Regular />}
            data-testid={`schedule-edit-${schedule.id}`}
            onClick={() => onEdit(schedule)}
          />
        </Tooltip>
        {canDelete(schedule) ? (
          <Tooltip content={t('actions.delete')} relationship="label">
            <Button
              size="small"
              appearance="transparent"
              icon={<Delete16Regular />}
              data-testid={`schedule-delete-${schedule.id}`}
              onClick={() => onDelete(schedule)}
            />
          </Tooltip>
        ) : null}
      </div>
      <Text className={styles.label} size={200}>
        {name}
      </Text>
    </div>
  );
}

/** A hand-made month grid: six weeks, each schedule in the cell of its sendAt's local day. */
export function ScheduleCalendar({ month, schedules, weekStartsOn, ...eventProps }: ScheduleViewProps) {
  const styles = useStyles();
  const days = useMemo(() => monthGrid(month, weekStartsOn), [month, weekStartsOn]);
  const byDay = useMemo(() => placeByDay(schedules), [schedules]);
  const locale = dateLocale();
  return (
    <div className={styles.grid} role="grid" data-testid="schedule-calendar">
      {days.slice(0, 7).map((day) => (
        <div key={`head-${day.getDay()}`} className={styles.weekday} role="columnheader">
          {format(day, 'EEE', { locale })}
        </div>
      ))}
      {days.map((day) => {
        const key = dayKey(day);
        const inMonth = isSameMonth(day, month);
        return (
          <div
            key={key}
            role="gridcell"
            className={mergeClasses(styles.day, !inMonth && styles.outside)}
            data-testid={`calendar-day-${key}`}
            data-outside={inMonth ? undefined : 'true'}
          >
            <span className={mergeClasses(styles.number, isToday(day) && styles.today)}>{format(day, 'd')}</span>
            {(byDay.get(key) ?? []).map((schedule) => (
              <ScheduleEvent key={schedule.id} schedule={schedule} {...eventProps} />
            ))}
          </div>
        );
      })}
    </div>
  );
}
