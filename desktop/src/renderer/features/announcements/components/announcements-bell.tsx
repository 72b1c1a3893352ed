import { useEffect, useMemo, useState } from 'react';
import { Text, makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { Image16Regular, Megaphone20Regular } from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import { BellButton } from '../../../components/bell-button';
import { formatListTime } from '../../../i18n/format';
import { useAuthStore } from '../../../stores/auth-store';
import type { Announcement } from '../api/announcements';
import { useActiveAnnouncements } from '../hooks/use-active-announcements';
import { readSeen, useSeenAnnouncements } from '../stores/seen-store';
import { AnnouncementDialog } from './announcement-dialog';

const useStyles = makeStyles({
  list: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXS },
  item: {
    display: 'flex',
    flexDirection: 'column',
    gap: '2px',
    padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalS}`,
    borderRadius: tokens.borderRadiusMedium,
    borderTop: 'none',
    borderRight: 'none',
    borderBottom: 'none',
    borderLeft: '4px solid',
    background: 'none',
    color: 'inherit',
    textAlign: 'left',
    font: 'inherit',
    cursor: 'pointer',
    ':hover': { backgroundColor: tokens.colorNeutralBackground1Hover },
  },
  // Spec 01 section 3: priority 1 red, 2 orange, 3 grey border.
  high: { borderLeftColor: tokens.colorPaletteRedBorder2 },
  medium: { borderLeftColor: tokens.colorPaletteDarkOrangeBorder2 },
  low: { borderLeftColor: tokens.colorNeutralStroke1 },
  head: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalXS },
  title: { flex: 1, minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
  muted: { color: tokens.colorNeutralForeground3 },
  preview: {
    color: tokens.colorNeutralForeground3,
    overflow: 'hidden',
    display: '-webkit-box',
    WebkitLineClamp: 2,
    WebkitBoxOrient: 'vertical',
  },
});

const priorityClass = (priority: number) => (priority === 1 ? 'high' : priority === 2 ? 'medium' : 'low');

/** The announcements bell: the active announcements, a badge for those not seen yet, live from company-announcement. */
export function AnnouncementsBell() {
  const styles = useStyles();
  const { t } = useTranslation('announcements');
  const { t: tc } = useTranslation();
  const userId = useAuthStore((s) => s.user?.id);
  const { data } = useActiveAnnouncements();
  const stored = useSeenAnnouncements((s) => (userId ? s.byUser[userId] : undefined));
  const markSeen = useSeenAnnouncements((s) => s.markSeen);
  const [open, setOpen] = useState(false);
  const [shown, setShown] = useState<Announcement | null>(null);

  // Other screens' tests answer unknown calls with anything: only a list is a list.
  const list = useMemo(() => (Array.isArray(data) ? data : []), [data]);
  const seen = useMemo(() => new Set(stored ?? (userId ? readSeen(userId) : [])), [stored, userId]);
  const unseen = list.filter((a) => !seen.has(a.id)).length;

  // Opening the bell shows them all: they count as seen, and so does one arriving while it is open.
  useEffect(() => {
    if (open && userId && unseen > 0) markSeen(userId, list.map((a) => a.id));
  }, [open, userId, unseen, list, markSeen]);

  return (
    <span data-testid="announcements-bell" style={{ display: 'inline-flex' }}>
      <BellButton
        label={tc('layout.announcements')}
        icon={<Megaphone20Regular />}
        count={unseen}
        emptyText={t('bell.empty')}
        open={open}
        onOpenChange={setOpen}
      >
        {list.length > 0 ? (
          <div className={styles.list} role="list">
            {list.map((a) => (
              <button
                type="button"
                role="listitem"
                key={a.id}
                data-testid={`announcement-item-${a.id}`}
                data-priority={a.priority}
                className={mergeClasses(styles.item, styles[priorityClass(a.priority)])}
                onClick={() => {
                  setOpen(false);
                  setShown(a);
                }}
              >
                <span className={styles.head}>
                  <Text weight="semibold" className={styles.title}>
                    {a.title}
                  </Text>
                  {a.mediaUrl ? <Image16Regular aria-label={t('bell.hasImage')} /> : null}
                  <Text size={100} className={styles.muted}>
                    {formatListTime(a.createdAt)}
                  </Text>
                </span>
                <Text size={200} className={styles.preview}>
                  {a.text}
                </Text>
              </button>
            ))}
          </div>
        ) : undefined}
      </BellButton>
      {shown ? <AnnouncementDialog announcement={shown} onClose={() => setShown(null)} /> : null}
    </span>
  );
}
