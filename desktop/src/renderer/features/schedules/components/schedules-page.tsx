import { useEffect, useMemo, useState } from 'react';
import { Button, MessageBar, MessageBarBody, Spinner, Text, Tooltip, makeStyles, tokens } from '@fluentui/react-components';
import { ChevronLeft20Regular, ChevronRight20Regular } from '@fluentui/react-icons';
import { format, startOfMonth } from 'date-fns';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { usePlanFlags } from '../../../api/company';
import { queryClient, useQuery } from '../../../api/query';
import { useRealtimeEvent } from '../../../api/socket';
import { PageContainer, PageContent } from '../../../components/page-container';
import { DeleteDialog, ListHeader, useSearch } from '../../../components/list-kit';
import { useWindowWidth } from '../../../hooks/use-window-width';
import { dateLocale } from '../../../i18n/format';
import { useCurrentUser, useIsAdmin } from '../../../stores/auth-store';
import { SCHEDULES_KEY, schedulesApi, type Schedule } from '../api/schedules';
import { gridWindow, shiftMonth } from '../lib/calendar';
import { ScheduleCalendar } from './schedule-calendar';
import { ScheduleList } from './schedule-list';
import { ScheduleModal } from './schedule-modal';

/** Below this width the month is a list: seven columns no longer fit. */
export const LIST_VIEW_MAX_WIDTH = 760;

const useStyles = makeStyles({
  toolbar: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS, marginBottom: tokens.spacingVerticalM },
  month: { flex: 1, textTransform: 'capitalize' },
});

type Editing = { schedule?: Schedule; contactId?: number };

/** /schedules: a month calendar of scheduled messages (a list on narrow windows), search and add. */
export default function SchedulesPage() {
  const styles = useStyles();
  const { t } = useTranslation('schedules');
  const user = useCurrentUser();
  const isAdmin = useIsAdmin();
  const plan = usePlanFlags();
  const width = useWindowWidth();
  const [params, setParams] = useSearchParams();
  const [month, setMonth] = useState(() => startOfMonth(new Date()));
  const { search, setSearch, searchParam } = useSearch();
  const [editing, setEditing] = useState<Editing | null>(null);
  const [deleting, setDeleting] = useState<Schedule | null>(null);

  const locale = dateLocale();
  const weekStartsOn = locale.options?.weekStartsOn ?? 0;
  const range = useMemo(() => gridWindow(month, weekStartsOn), [month, weekStartsOn]);
  const schedules = useQuery(
    [...SCHEDULES_KEY, { from: range.from.toISOString(), to: range.to.toISOString(), searchParam }],
    () => schedulesApi.window({ ...range, searchParam }),
  );

  // /schedules?contactId=N (the conversation's "schedule" action) opens a new schedule for that contact.
  useEffect(() => {
    const contactId = Number(params.get('contactId'));
    if (!Number.isInteger(contactId) || contactId <= 0) return;
    setEditing({ contactId });
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        next.delete('contactId');
        return next;
      },
      { replace: true },
    );
  }, [params, setParams]);

  useRealtimeEvent('schedule', () => void queryClient.invalidateQueries({ queryKey: SCHEDULES_KEY }));

  // Changing a schedule is for admins, and a sent one is history: the others get a "view" icon.
  const canEdit = (s: Schedule) => isAdmin && !s.sentAt;
  const canDelete = (s: Schedule) => isAdmin || (user !== null && s.userId === user.id);

  const viewProps = {
    month,
    schedules: schedules.data ?? [],
    weekStartsOn,
    onEdit: (schedule: Schedule) => setEditing({ schedule }),
    onDelete: setDeleting,
    canEdit,
    canDelete,
  };

  return (
    <PageContainer>
      <ListHeader
        title={t('title')}
        search={{ value: search, onChange: setSearch, label: t('search'), testId: 'schedules-search' }}
        add={{ label: t('add'), onClick: () => setEditing({}), testId: 'schedules-add', disabled: plan?.useSchedules === false }}
      />
      {plan?.useSchedules === false ? (
        <MessageBar intent="warning">
          <MessageBarBody>{t('planDisabled')}</MessageBarBody>
        </MessageBar>
      ) : null}
      <PageContent>
        <div className={styles.toolbar}>
          <Tooltip content={t('calendar.previous')} relationship="label">
            <Button appearance="subtle" icon={<ChevronLeft20Regular />} data-testid="calendar-previous" onClick={() => setMonth((m) => shiftMonth(m, -1))} />
          </Tooltip>
          <Button appearance="subtle" data-testid="calendar-today" onClick={() => setMonth(startOfMonth(new Date()))}>
            {t('calendar.today')}
          </Button>
          <Tooltip content={t('calendar.next')} relationship="label">
            <Button appearance="subtle" icon={<ChevronRight20Regular />} data-testid="calendar-next" onClick={() => setMonth((m) => shiftMonth(m, 1))} />
          </Tooltip>
          <Text as="h2" size={500} weight="semibold" className={styles.month} data-testid="calendar-month">
            {format(month, 'LLLL yyyy', { locale })}
          </Text>
          {schedules.isFetching ? <Spinner size="tiny" /> : null}
        </div>
        {schedules.isLoading ? (
          <Spinner />
        ) : width < LIST_VIEW_MAX_WIDTH ? (
          <ScheduleList {...viewProps} />
        ) : (
          <ScheduleCalendar {...viewProps} />
        )}
      </PageContent>
      {editing ? (
        <ScheduleModal
          key={editing.schedule?.id ?? `new-${editing.contactId ?? ''}`}
          schedule={editing.schedule}
          contactId={editing.contactId}
          onClose={() => setEditing(null)}
        />
      ) : null}
      <DeleteDialog
        item={deleting}
        onClose={() => setDeleting(null)}
        title={() => t('confirmDelete.title')}
        body={t('confirmDelete.body', { name: deleting?.contact?.name ?? '' })}
        remove={(schedule) => schedulesApi.remove(schedule.id)}
        listKey={SCHEDULES_KEY}
        deletedMessage={t('toasts.deleted')}
      />
    </PageContainer>
  );
}
