import { useEffect, useRef } from 'react';
import { Badge } from '@fluentui/react-components';
import { ANNOUNCEMENT_EVENT } from '@atrium/shared';
import { useTranslation } from 'react-i18next';
import { Navigate } from 'react-router';
import { CrudListPage, type Column } from '../../../components/list-kit';
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
    <CrudListPage<Announcement>
      namespace="announcements"
      queryKey={ANNOUNCEMENTS_PAGE_KEY}
      // A delete reloads the bell's list too.
      listKey={ANNOUNCEMENTS_KEY}
      api={announcementsApi}
      testIds={{ page: 'announcements', row: 'announcement' }}
      columns={columns}
      // Inactive ones reach sockets as id and status only: reload rather than patch.
      realtime={{ event: ANNOUNCEMENT_EVENT, reload: ANNOUNCEMENTS_PAGE_KEY }}
      deleteTitleValues={(a) => ({ title: a.title })}
      dialog={({ item, onClose }) => <AnnouncementModal announcement={item} onClose={onClose} />}
    />
  );
}
