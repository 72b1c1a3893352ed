import { useEffect, useRef } from 'react';
import { Badge } from '@fluentui/react-components';
import { ANNOUNCEMENT_EVENT } from '@atrium/shared';
import { useTranslation } from 'react-i18next';
import { Navigate } from 'react-router';
import { queryClient, usePagedQuery } from '../../../api/query';
import { useRealtimeRawEvent } from '../../../api/socket';
import {
  DataTable,
  DeleteDialog,
  EditDeleteActions,
  InfiniteList,
  ListHeader,
  useListDialogs,
  useSearch,
  type Column,
} from '../../../components/list-kit';
import { PageContainer, PageContent } from '../../../components/page-container';
import { toast } from '../../../components/toasts';
import { useAuthStore } from '../../../stores/auth-store';
import { ANNOUNCEMENTS_KEY, ANNOUNCEMENTS_PAGE_KEY, announcementsApi, type Announcement } from '../api/announcements';
import { priorityKey } from '../hooks/announcement-rules';
import { AnnouncementModal } from './announcement-modal';

const PRIORITY_COLOR = { high: 'danger', medium: 'warning', low: 'informative' } as const;

/** Spec 02 section 8: a non-super user is told and sent to /. */
function NotAllowed() {
  const { t } = useTranslation('announcements');
  const told = useRef(false);
  useEffect(() => {
    if (told.current) return;
    told.current = true;
    toast.info(t('superOnly'));
  }, [t]);
  return <Navigate to="/" replace />;
}

/** /announcements: super users manage the announcements every company sees. */
export default function AnnouncementsPage() {
  const isSuper = useAuthStore((s) => !!s.user?.super);
  return isSuper ? <AnnouncementsManager /> : <NotAllowed />;
}

function AnnouncementsManager() {
  const { t } = useTranslation('announcements');
  const { search, setSearch, searchParam } = useSearch();
  const list = usePagedQuery<Announcement>([...ANNOUNCEMENTS_PAGE_KEY, { searchParam }], (page) => announcementsApi.page(searchParam, page));
  const dialogs = useListDialogs<Announcement>();

  // Inactive ones reach sockets as id and status only: reload rather than patch.
  useRealtimeRawEvent(ANNOUNCEMENT_EVENT, () => void queryClient.invalidateQueries({ queryKey: ANNOUNCEMENTS_PAGE_KEY }));

  const columns: Column<Announcement>[] = [
    { id: 'title', header: t('columns.title'), cell: (a) => a.title },
    {
      id: 'priority',
      header: t('columns.priority'),
      width: 120,
      cell: (a) => (
        <Badge appearance="tint" color={PRIORITY_COLOR[priorityKey(a.priority)]}>
          {t(`priorities.${priorityKey(a.priority)}`)}
        </Badge>
      ),
    },
    { id: 'media', header: t('columns.mediaName'), secondary: true, cell: (a) => a.mediaName ?? t('noMedia') },
    {
      id: 'status',
      header: t('columns.status'),
      width: 110,
      secondary: true,
      cell: (a) => (
        <Badge appearance="outline" color={a.status ? 'success' : 'subtle'}>
          {a.status ? t('status.active') : t('status.inactive')}
        </Badge>
      ),
    },
  ];

  return (
    <PageContainer>
      <ListHeader
        title={t('title')}
        search={{ value: search, onChange: setSearch, label: t('search'), testId: 'announcements-search' }}
        add={{ label: t('add'), onClick: dialogs.openAdd, testId: 'announcements-add' }}
      />
      <PageContent>
        <InfiniteList
          list={list}
          emptyTitle={t('empty')}
          testId="announcements-scroller"
        >
          <DataTable
            label={t('title')}
            rows={list.items}
            columns={columns}
            rowKey={(a) => a.id}
            rowTestId={(a) => `announcement-row-${a.id}`}
            actionsHeader={t('columns.actions')}
            actions={(a) => (
              <EditDeleteActions testIdPrefix="announcement" id={a.id} onEdit={() => dialogs.openEdit(a)} onDelete={() => dialogs.askDelete(a)} />
            )}
          />
        </InfiniteList>
      </PageContent>
      {dialogs.editing ? (
        <AnnouncementModal key={dialogs.edited?.id ?? 'new'} announcement={dialogs.edited} onClose={dialogs.closeForm} />
      ) : null}
      <DeleteDialog
        item={dialogs.deleting}
        onClose={dialogs.closeDelete}
        title={(a) => t('confirmDelete.title', { title: a.title })}
        body={t('confirmDelete.body')}
        remove={(a) => announcementsApi.remove(a.id)}
        listKey={ANNOUNCEMENTS_KEY}
        deletedMessage={t('toasts.deleted')}
      />
    </PageContainer>
  );
}
