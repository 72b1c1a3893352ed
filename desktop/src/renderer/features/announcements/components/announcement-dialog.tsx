import {
  Button,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Text,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../../i18n/format';
import { mediaHref, type Announcement } from '../api/announcements';

const useStyles = makeStyles({
  content: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  date: { color: tokens.colorNeutralForeground3 },
  text: { whiteSpace: 'pre-wrap', wordBreak: 'break-word' },
  image: { maxWidth: '100%', borderRadius: tokens.borderRadiusMedium, alignSelf: 'center' },
});

/** One announcement opened from the bell: its text and image. */
export function AnnouncementDialog({ announcement, onClose }: { announcement: Announcement; onClose: () => void }) {
  const styles = useStyles();
  const { t } = useTranslation();
  return (
    <Dialog open onOpenChange={(_, d) => !d.open && onClose()}>
      <DialogSurface data-testid="announcement-dialog">
        <DialogBody>
          <DialogTitle>{announcement.title}</DialogTitle>
          <DialogContent className={styles.content}>
            <Text size={200} className={styles.date}>
              {formatDateTime(announcement.createdAt)}
            </Text>
            <Text className={styles.text}>{announcement.text}</Text>
            {announcement.mediaUrl ? (
              <img className={styles.image} src={mediaHref(announcement.mediaUrl)} alt={announcement.mediaName ?? ''} />
            ) : null}
          </DialogContent>
          <DialogActions>
            <Button appearance="primary" onClick={onClose}>
              {t('actions.close')}
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
