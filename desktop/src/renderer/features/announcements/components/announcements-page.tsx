import { useEffect, useRef, useState } from 'react';
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
} from '@fluentui/react-components';
import { Add20Regular, Delete20Regular, Edit20Regular, Search20Regular } from '@fluentui/react-icons';
import { ANNOUNCEMENT_EVENT } from '@atrium/shared';
import { useTranslation } from 'react-i18next';
import { Navigate } from 'react-router';
import { queryClient, usePagedQuery } from '../../../api/query';
import { useRealtimeRawEvent } from '../../../api/socket';
import { ConfirmationDialog } from '../../../components/confirmation-dialog';
import { RowAction } from '../../../components/row-action';
import { ListBody } from '../../../components/list-body';
import { PageContainer, PageContent } from '../../../components/page-container';
import { PageHeader } from '../../../components/page-header';
import { toast } from '../../../components/toasts';
import { useDebouncedValue } from '../../../hooks/use-debounced-value';
import { useAuthStore } from '../../../stores/auth-store';
import { ANNOUNCEMENTS_KEY, ANNOUNCEMENTS_PAGE_KEY, announcementsApi, type Announcement } from '../api/announcements';
import { priorityKey } from '../hooks/announcement-rules';
import { AnnouncementModal } from './announcement-modal';
import { removeRow } from '../../../hooks/remove-row';

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
  const { t: tc } = useTranslation();
  const [search, setSearch] = useState('');
  const searchParam = useDebouncedValue(search.trim());
  const { items, hasMore, isLoading, loadMore } = usePagedQuery<Announcement>([...ANNOUNCEMENTS_PAGE_KEY, { searchParam }], (page) =>
    announcementsApi.page(searchParam, page),
  );
  const [editing, setEditing] = useState<Announcement | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Announcement | null>(null);

  // Inactive ones reach sockets as id and status only: reload rather than patch.
  useRealtimeRawEvent(ANNOUNCEMENT_EVENT, () => void queryClient.invalidateQueries({ queryKey: ANNOUNCEMENTS_PAGE_KEY }));

  const remove = (announcement: Announcement) => removeRow(() => announcementsApi.remove(announcement.id), ANNOUNCEMENTS_KEY, t('toasts.deleted'));

  return (
    <PageContainer>
      <PageHeader
        title={t('title')}
        actions={
          <>
            <Input
              contentBefore={<Search20Regular />}
              placeholder={t('search')}
              aria-label={t('search')}
              value={search}
              onChange={(_, d) => setSearch(d.value)}
            />
            <Button appearance="primary" icon={<Add20Regular />} data-testid="announcements-add" onClick={() => setEditing('new')}>
              {t('add')}
            </Button>
          </>
        }
      />
      <PageContent>
        <div
          style={{ height: '100%', overflow: 'auto' }}
          onScroll={(e) => {
            const el = e.currentTarget;
            if (hasMore && el.scrollHeight - (el.scrollTop + el.clientHeight) < 100) void loadMore();
          }}
        >
          <ListBody loading={isLoading} empty={items.length === 0} emptyTitle={t('empty')}>
            <Table aria-label={t('title')}>
              <TableHeader>
                <TableRow>
                  <TableHeaderCell>{t('columns.title')}</TableHeaderCell>
                  <TableHeaderCell style={{ width: 120 }}>{t('columns.priority')}</TableHeaderCell>
                  <TableHeaderCell>{t('columns.mediaName')}</TableHeaderCell>
                  <TableHeaderCell style={{ width: 110 }}>{t('columns.status')}</TableHeaderCell>
                  <TableHeaderCell style={{ width: 110 }}>{t('columns.actions')}</TableHeaderCell>
                </TableRow>
              </TableHeader>
              <TableBody>
                {items.map((a) => (
                  <TableRow key={a.id} data-testid={`announcement-row-${a.id}`}>
                    <TableCell>{a.title}</TableCell>
                    <TableCell>
                      <Badge appearance="tint" color={PRIORITY_COLOR[priorityKey(a.priority)]}>
                        {t(`priorities.${priorityKey(a.priority)}`)}
                      </Badge>
                    </TableCell>
                    <TableCell>{a.mediaName ?? t('noMedia')}</TableCell>
                    <TableCell>
                      <Badge appearance="outline" color={a.status ? 'success' : 'subtle'}>
                        {a.status ? t('status.active') : t('status.inactive')}
                      </Badge>
                    </TableCell>
                    <TableCell>
                      <RowAction label={tc('actions.edit')} icon={<Edit20Regular />} onClick={() => setEditing(a)} />
                      <RowAction label={tc('actions.delete')} icon={<Delete20Regular />} onClick={() => setDeleting(a)} />
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </ListBody>
        </div>
      </PageContent>
      {editing ? (
        <AnnouncementModal
          key={editing === 'new' ? 'new' : editing.id}
          announcement={editing === 'new' ? undefined : editing}
          onClose={() => setEditing(null)}
        />
      ) : null}
      <ConfirmationDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={t('confirmDelete.title', { title: deleting?.title ?? '' })}
        confirmLabel={tc('actions.delete')}
        destructive
        onConfirm={() => (deleting ? remove(deleting) : undefined)}
      >
        {t('confirmDelete.body')}
      </ConfirmationDialog>
    </PageContainer>
  );
}
