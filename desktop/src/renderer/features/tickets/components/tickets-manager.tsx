import { useMemo, useState } from 'react';
import { Button, CounterBadge, Input, makeStyles, Switch, Tab, TabList, tokens } from '@fluentui/react-components';
import { Add16Regular, Search16Regular } from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { can } from '@atrium/shared';
import { useQuery } from '../../../api/query';
import { useDebouncedValue } from '../../../hooks/use-debounced-value';
import { useCurrentUser, useIsAdmin } from '../../../stores/auth-store';
import { fetchQueues, fetchTags, fetchUsers } from '../api/tickets';
import type { Ticket, TicketStatus } from '../api/types';
import { useTicketActions } from '../hooks/use-ticket-actions';
import { useTicketList } from '../hooks/use-ticket-list';
import { useTicketsUi, type MainTab, type SubTab } from '../stores/tickets-store';
import { MultiSelect } from './multi-select';
import { NewTicketDialog } from './new-ticket-dialog';
import { PeekDialog } from './peek-dialog';
import { InboxEmpty, inboxEmptyReason } from './inbox-empty';
import { TicketList } from './ticket-list';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', height: '100%', minHeight: 0, backgroundColor: tokens.colorNeutralBackground1 },
  toolbar: {
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalS,
    padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalM}`,
    flexWrap: 'wrap',
    borderBottom: `1px solid ${tokens.colorNeutralStroke2}`,
  },
  grow: { flex: 1 },
  tabs: { borderBottom: `1px solid ${tokens.colorNeutralStroke2}` },
  tabLabel: { display: 'inline-flex', alignItems: 'center', gap: '6px' },
  lists: { flex: 1, minHeight: 0, display: 'flex', flexDirection: 'column' },
});

export interface TicketsManagerProps {
  selectedUuid?: string;
}

/** The left column: tabs, filters, the lists (spec 01 section 2, Ticket manager). */
export function TicketsManager({ selectedUuid }: TicketsManagerProps) {
  const styles = useStyles();
  const { t } = useTranslation('tickets');
  const navigate = useNavigate();
  const user = useCurrentUser();
  const isAdmin = useIsAdmin();
  const actions = useTicketActions();
  // In the store: accepting a ticket (here or in the conversation) switches to the assigned list.
  const tab = useTicketsUi((s) => s.tab);
  const setTab = useTicketsUi((s) => s.setTab);
  const subTab = useTicketsUi((s) => s.subTab);
  const setSubTab = useTicketsUi((s) => s.setSubTab);
  const [search, setSearch] = useState('');
  const searchParam = useDebouncedValue(search.trim(), 500);
  const [tagIds, setTagIds] = useState<number[]>([]);
  const [userIds, setUserIds] = useState<number[]>([]);
  const [newOpen, setNewOpen] = useState(false);
  const [peek, setPeek] = useState<Ticket | null>(null);
  const storedQueues = useTicketsUi((s) => s.selectedQueueIds);
  const setQueues = useTicketsUi((s) => s.setSelectedQueueIds);
  const showAll = useTicketsUi((s) => s.showAll);
  const setShowAll = useTicketsUi((s) => s.setShowAll);
  const userQueues = useMemo(() => user?.queues ?? [], [user]);
  const queueIds = useMemo(() => storedQueues ?? userQueues.map((q) => q.id), [storedQueues, userQueues]);
  const mayShowAll = can(user?.profile, 'tickets-manager:showall');

  const queues = useQuery(['queues'], fetchQueues, { staleTime: 60_000 });
  const tags = useQuery(['tags', 'list'], fetchTags, { enabled: tab === 'search', staleTime: 60_000 });
  const users = useQuery(['users', 'list'], fetchUsers, { enabled: tab === 'search' && isAdmin, staleTime: 60_000 });
  const queueOptions = isAdmin ? (queues.data ?? userQueues) : userQueues;

  const base = { userId: user?.id ?? 0, queueIds, showAll: showAll && mayShowAll };
  const listOf = (status: TicketStatus) => ({ status, queueIds, showAll: base.showAll });
  const open = useTicketList(listOf('open'), { ...base, status: 'open' });
  const pending = useTicketList(listOf('pending'), { ...base, status: 'pending' });
  const closed = useTicketList(listOf('closed'), { ...base, status: 'closed' }, tab === 'closed');
  const searchList = useTicketList(
    { searchParam, queueIds, tags: tagIds, users: userIds, showAll: base.showAll },
    { ...base, search: true },
    tab === 'search',
  );

  const current = tab === 'search' ? searchList : tab === 'closed' ? closed : subTab === 'pending' ? pending : open;
  const emptyReason = tab === 'open' ? inboxEmptyReason(user, isAdmin, subTab) : null;

  return (
    <div className={styles.root}>
      <div className={styles.toolbar}>
        <Button size="small" appearance="primary" icon={<Add16Regular />} onClick={() => setNewOpen(true)}>
          {t('actions.newTicket')}
        </Button>
        {mayShowAll ? (
          <Switch label={t('filters.showAll')} checked={showAll} onChange={(_, d) => setShowAll(d.checked)} />
        ) : null}
        <span className={styles.grow} />
        <MultiSelect label={t('filters.queues')} options={queueOptions} selected={queueIds} onChange={setQueues} />
      </div>
      <TabList className={styles.tabs} size="small" selectedValue={tab} onTabSelect={(_, d) => setTab(d.value as MainTab)}>
        <Tab value="open" data-testid="tickets-tab-open">
          {t('tabs.open')}
        </Tab>
        <Tab value="closed" data-testid="tickets-tab-closed">
          {t('tabs.closed')}
        </Tab>
        <Tab value="search" data-testid="tickets-tab-search">
          {t('tabs.search')}
        </Tab>
      </TabList>
      {tab === 'open' ? (
        <TabList className={styles.tabs} size="small" selectedValue={subTab} onTabSelect={(_, d) => setSubTab(d.value as SubTab)}>
          <Tab value="open" data-testid="tickets-subtab-open">
            <span className={styles.tabLabel}>
              {t('subtabs.open')}
              <CounterBadge size="small" color="brand" showZero count={open.count ?? open.items.length} />
            </span>
          </Tab>
          <Tab value="pending" data-testid="tickets-subtab-pending">
            <span className={styles.tabLabel}>
              {t('subtabs.pending')}
              {/* Red asks for attention: only when someone is waiting. */}
              <CounterBadge
                size="small"
                color={(pending.count ?? pending.items.length) > 0 ? 'danger' : 'informative'}
                showZero
                count={pending.count ?? pending.items.length}
                data-testid="tickets-pending-count"
              />
            </span>
          </Tab>
        </TabList>
      ) : null}
      {tab === 'search' ? (
        <div className={styles.toolbar}>
          <Input
            size="small"
            className={styles.grow}
            contentBefore={<Search16Regular />}
            placeholder={t('filters.search')}
            aria-label={t('filters.search')}
            value={search}
            onChange={(_, d) => setSearch(d.value)}
          />
          <MultiSelect label={t('filters.tags')} options={tags.data ?? []} selected={tagIds} onChange={setTagIds} />
          {isAdmin ? (
            <MultiSelect label={t('filters.users')} options={users.data ?? []} selected={userIds} onChange={setUserIds} />
          ) : null}
        </div>
      ) : null}
      <div className={styles.lists}>
        <TicketList
          tickets={current.items}
          loading={current.isLoading || current.isFetching}
          hasMore={current.hasMore}
          loadMore={() => void current.loadMore()}
          selectedUuid={selectedUuid}
          isAdmin={isAdmin}
          onOpen={(ticket) => void navigate(`/tickets/${ticket.uuid}`)}
          onAccept={(ticket) => void actions.accept(ticket)}
          onClose={(ticket) => void actions.close(ticket)}
          onReopen={(ticket) => void actions.reopen(ticket)}
          onPeek={setPeek}
          empty={emptyReason ? <InboxEmpty reason={emptyReason} queues={userQueues.map((q) => q.name)} /> : undefined}
        />
      </div>
      <NewTicketDialog open={newOpen} onOpenChange={setNewOpen} />
      {peek ? <PeekDialog ticket={peek} onClose={() => setPeek(null)} /> : null}
    </div>
  );
}
