import { useEffect } from 'react';
import { Button, Dialog, DialogBody, DialogContent, DialogSurface, DialogTitle, makeStyles } from '@fluentui/react-components';
import { Dismiss24Regular } from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import { embedUrl } from '../hooks/youtube';

const useStyles = makeStyles({
  surface: { maxWidth: '960px', width: '90vw' },
  frame: { position: 'relative', width: '100%', aspectRatio: '16 / 9' },
  iframe: { position: 'absolute', inset: 0, width: '100%', height: '100%', border: 'none' },
});

/** A help video playing in a modal; Escape (or the close button) closes it (spec 02 section 2). */
export function VideoModal({ title, videoId, onClose }: { title: string; videoId: string; onClose: () => void }) {
  const styles = useStyles();
  const { t } = useTranslation();

  // The dialog closes on Escape while it has focus; this also covers focus left on the page behind it.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);

  return (
    <Dialog open onOpenChange={(_, d) => !d.open && onClose()}>
      <DialogSurface className={styles.surface} data-testid="help-video-modal">
        <DialogBody>
          <DialogTitle
            action={<Button appearance="subtle" aria-label={t('actions.close')} icon={<Dismiss24Regular />} onClick={onClose} />}
          >
            {title}
          </DialogTitle>
          <DialogContent>
            <div className={styles.frame}>
              <iframe
                className={styles.iframe}
                src={embedUrl(videoId)}
                title={title}
                allow="autoplay; encrypted-media; picture-in-picture; fullscreen"
                allowFullScreen
                referrerPolicy="strict-origin-when-cross-origin"
              />
            </div>
          </DialogContent>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
