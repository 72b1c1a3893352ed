import { useMemo } from 'react';
import { Badge, Button, Text, makeStyles, tokens } from '@fluentui/react-components';
import { Delete20Regular, Edit20Regular, Eye20Regular } from '@fluentui/react-icons';
import { format, isSameMonth } from 'date-fns';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../components/empty-state';
import { dateLocale, formatTime } from '../../../i18n/format';
import type { Schedule } from '../api/schedules';
import { placeByDay } from '../lib/calendar';
import type { ScheduleViewProps } from './schedule-calendar';

const useStyles = makeStyles({
  day: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXS, marginBottom: tokens.spacingVerticalM },
  heading: { textTransform: 'capitalize', color: tokens.colorNeutralForeground3 },
  item: {
    display: 'grid',
    gridTemplateColumns: 'auto 1fr auto',
    alignItems: 'center',
    gap: tokens.spacingHorizontalS,
    padding: tokens.spacingVerticalS,
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: tokens.colorNeutralBackground2,
  },
  text: { display: 'flex', flexDirection: 'column', minWidth: 0 },
  body: { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', color: tokens.colorNeutralForeground3 },
  actions: { display: 'flex' },
});

const STATUS_COLOR = { PENDENTE: 'informative', AGENDADA: 'warning', ENVIADA: 'success', ERRO: 'danger' } as const;

/** The month as a list by day, for narrow windows where a seven-column grid does not fit. */
export function ScheduleList({ month, schedules, onEdit, onDelete, canEdit, canDelete }: ScheduleViewProps) {
  const styles = useStyles();
  const { t } = useTranslation('schedules');
  const days = useMemo(
    () => [...placeByDay(schedules).entries()].filter(([, items]) => isSameMonth(new Date(items[0].sendAt), month)),
    [schedules, month],
  );
  if (days.length === 0) return <EmptyState title={t('empty')} />;
  const locale = dateLocale();
  return (
    <div data-testid="schedule-list">
      {days.map(([key, items]) => (
        <section key={key} className={styles.day} data-testid={`list-day-${key}`}>
          <Text weight="semibold" className={styles.heading}>
            {format(new Date(items[0].sendAt), 'EEEE, dd/MM/yyyy', { locale })}
          </Text>
          {items.map((s: Schedule) => (
            <div key={s.id} className={styles.item} data-testid={`schedule-item-${s.id}`}>
              <Text weight="semibold">{formatTime(s.sendAt)}</Text>
              <div className={styles.text}>
                <Text>{s.contact?.name ?? `#${s.contactId}`}</Text>
                <Text size={200} className={styles.body}>
                  {s.body}
                </Text>
                <div>
                  <Badge size="small" appearance="tint" color={STATUS_COLOR[s.status]}>
                    {t(`status.${s.status}`)}
                  </Badge>
                </div>
              </div>
              <div className={styles.actions}>
                <Button
                  appearance="subtle"
                  icon={canEdit(s) ? <Edit20Regular /> : <Eye20Regular />}
                  aria-label={canEdit(s) ? t('actions.edit') : t('actions.view')}
                  data-testid={`schedule-edit-${s.id}`}
                  onClick={() => onEdit(s)}
                />
                {canDelete(s) ? (
                  <Button
                    appearance="subtle"
                    icon={<Delete20Regular />}
                    aria-label={t('actions.delete')}
                    data-testid={`schedule-delete-${s.id}`}
                    onClick={() => onDelete(s)}
                  />
                ) : null}
              </div>
            </div>
          ))}
        </section>
      ))}
    </div>
  );
}
