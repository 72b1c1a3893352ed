import { useState } from 'react';
import {
  Button,
  Checkbox,
  Dialog,
  DialogActions,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Field,
  Spinner,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { FLOW_MEDIA_RULES, type FlowMediaKind } from '@atrium/shared';
import { useTranslation } from 'react-i18next';
import { toast } from '../../../components/toasts';
import { flowsApi } from '../api/flows';
import { compressImage, fileProblem } from './content-dialog';

/**
 * The edit dialog of the old single-file nodes (image, audio, video: they are no longer offered by the
 * speed-dial, the content node holds files now, but saved flows have them). A new file is checked against
 * the spec's types and sizes here and again by the server, and uploaded when the dialog saves, as the
 * content dialog does; an audio may go as a recorded voice note.
 */
export type MediaNodeType = FlowMediaKind;
export const MEDIA_TYPES: readonly string[] = ['img', 'audio', 'video'];

const useStyles = makeStyles({
  surface: { maxWidth: '480px', width: '100%' },
  content: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  file: { maxWidth: '100%', overflowWrap: 'anywhere' },
  current: { color: tokens.colorNeutralForeground2, overflowWrap: 'anywhere' },
});

export interface MediaDialogProps {
  type: MediaNodeType;
  data: Record<string, unknown>;
  onSubmit: (data: Record<string, unknown>) => void;
  onClose: () => void;
}

export function MediaDialog({ type, data, onSubmit, onClose }: MediaDialogProps) {
  const styles = useStyles();
  const { t } = useTranslation('flowbuilder');
  const [file, setFile] = useState<File | null>(null);
  const [record, setRecord] = useState<boolean>(!!data.record);
  const [uploading, setUploading] = useState(false);
  const current = String(data.url ?? '');

  const save = async () => {
    if (!file && !current) {
      toast.error(t('validation.emptyMedia'));
      return;
    }
    setUploading(true);
    try {
      const url = file ? (await flowsApi.upload([type === 'img' ? await compressImage(file) : file]))[0] : current;
      onSubmit(type === 'audio' ? { url, record } : { url });
      onClose();
    } catch {
      toast.error(t('toasts.uploadFailed'));
    } finally {
      setUploading(false);
    }
  };

  return (
    <Dialog open onOpenChange={(_, d) => !d.open && !uploading && onClose()}>
      <DialogSurface className={styles.surface} data-testid="flow-media-dialog">
        <DialogBody>
          <DialogTitle>{t(`dialogs.${type}.edit`)}</DialogTitle>
          <DialogContent className={styles.content}>
            <Field label={t(`cards.${type}`)} hint={t('media.limits', { types: FLOW_MEDIA_RULES[type].accept, mb: FLOW_MEDIA_RULES[type].maxBytes / 1024 / 1024 })}>
              <input
                className={styles.file}
                type="file"
                accept={FLOW_MEDIA_RULES[type].accept}
                aria-label={t(`cards.${type}`)}
                data-testid="flow-media-file"
                onChange={(e) => {
                  const chosen = e.target.files?.[0];
                  if (!chosen) return;
                  const refused = fileProblem(type, chosen, t);
                  if (refused) {
                    toast.error(refused);
                    e.target.value = '';
                    return;
                  }
                  setFile(chosen);
                }}
              />
            </Field>
            <span className={styles.current} data-testid="flow-media-current">
              {file ? t('media.chosen', { name: file.name }) : current ? t('media.current', { name: current }) : t('media.none')}
            </span>
            {type === 'audio' ? (
              <Checkbox label={t('cards.voiceNote')} checked={record} data-testid="flow-media-record" onChange={(_, d) => setRecord(!!d.checked)} />
            ) : null}
          </DialogContent>
          <DialogActions>
            {uploading ? <Spinner size="tiny" label={t('cards.uploading')} /> : null}
            <Button appearance="secondary" disabled={uploading} onClick={onClose}>
              {t('actions.cancel', { ns: 'common' })}
            </Button>
            <Button appearance="primary" disabled={uploading} data-testid="flow-media-save" onClick={() => void save()}>
              {t('actions.save', { ns: 'common' })}
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
