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
  Input,
  Menu,
  MenuItem,
  MenuList,
  MenuPopover,
  MenuTrigger,
  MessageBar,
  MessageBarBody,
  Spinner,
  Textarea,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { AddRegular, ArrowDownRegular, ArrowUpRegular, DeleteRegular } from '@fluentui/react-icons';
import { FLOW_CONTENT_MAX_ELEMENTS, FLOW_IMAGE_QUALITY, FLOW_INTERVAL_MAX_SECONDS, FLOW_MEDIA_RULES, type FlowContentElement, type FlowMediaKind } from '@atrium/shared';
import { useTranslation } from 'react-i18next';
import { toast } from '../../../components/toasts';
import { flowsApi } from '../api/flows';

/**
 * The content node's dialog (Conteúdo, stored as a singleBlock): an ordered list of cards — texts,
 * pauses, images, audios (as a voice note or a file) and videos. Files are checked against the spec's
 * types and sizes here and again by the server, and uploaded when the dialog saves.
 */
type CardType = FlowContentElement['type'];
interface Card {
  key: number;
  type: CardType;
  /** The text, the seconds, or the stored file's name. */
  value: string;
  /** A file chosen, not uploaded yet. */
  file?: File;
  original?: string;
  record?: boolean;
}

const mediaKind = (type: CardType): FlowMediaKind | null => (type === 'img' ? 'img' : type === 'audio' ? 'audio' : type === 'video' ? 'video' : null);

let keys = 0;
const cardsOf = (data: Record<string, unknown> | undefined): Card[] => {
  const elements = (data?.elements as FlowContentElement[]) ?? [];
  const seq = (data?.seq as string[]) ?? elements.map((e) => e.number);
  return seq.flatMap((ref) => {
    const e = elements.find((x) => x.number === ref);
    if (!e) return [];
    return [{ key: ++keys, type: e.type, value: String(e.value), original: 'original' in e ? e.original : undefined, record: e.type === 'audio' ? e.record : undefined }];
  });
};

/** What is wrong with the cards, in the spec's words (section 5), or null. */
export const contentProblem = (cards: Pick<Card, 'type' | 'value' | 'file'>[], t: (key: string) => string): string | null => {
  if (cards.length === 0) return t('validation.contentEmpty');
  if (cards.some((c) => c.type === 'message' && !c.value.trim())) return t('validation.emptyText');
  if (cards.some((c) => c.type === 'interval' && (!(Number(c.value) > 0) || Number(c.value) > FLOW_INTERVAL_MAX_SECONDS))) return t('validation.cardInterval');
  if (cards.some((c) => mediaKind(c.type) && !c.file && !c.value)) return t('validation.emptyMedia');
  return null;
};

/** Why a chosen file is refused (type or size), or null. */
export const fileProblem = (kind: FlowMediaKind, file: File, t: (key: string, v?: Record<string, unknown>) => string): string | null => {
  const rule = FLOW_MEDIA_RULES[kind];
  if (!(rule.types as readonly string[]).includes(file.type)) return t('validation.fileType');
  if (file.size > rule.maxBytes) return t('validation.fileSize', { mb: rule.maxBytes / 1024 / 1024 });
  return null;
};

/**
 * A JPEG photo is re-encoded at the spec's quality 0.7 before upload (spec 02 section 5), when that makes
 * it smaller; a PNG keeps its transparency as it is. Where the browser cannot (no OffscreenCanvas), the
 * file goes as chosen: the server's limits hold either way.
 */
export const compressImage = async (file: File): Promise<File> => {
  if (file.type !== 'image/jpeg' || typeof OffscreenCanvas === 'undefined' || typeof createImageBitmap === 'undefined') return file;
  try {
    const bitmap = await createImageBitmap(file);
    const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
    canvas.getContext('2d')!.drawImage(bitmap, 0, 0);
    bitmap.close();
    const blob = await canvas.convertToBlob({ type: 'image/jpeg', quality: FLOW_IMAGE_QUALITY });
    return blob.size < file.size ? new File([blob], file.name, { type: 'image/jpeg' }) : file;
  } catch {
    return file;
  }
};

const useStyles = makeStyles({
  surface: { maxWidth: '640px', width: '100%' },
  list: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS, maxHeight: '55vh', overflowY: 'auto' },
  card: {
    display: 'flex',
    gap: tokens.spacingHorizontalS,
    alignItems: 'flex-start',
    padding: tokens.spacingHorizontalS,
    border: `1px solid ${tokens.colorNeutralStroke2}`,
    borderRadius: tokens.borderRadiusMedium,
  },
  kind: { width: '5em', fontWeight: tokens.fontWeightSemibold, paddingTop: '6px' },
  grow: { flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalXS },
});

export interface ContentDialogProps {
  data?: Record<string, unknown>;
  onSubmit: (data: { seq: string[]; elements: FlowContentElement[] }) => void;
  onClose: () => void;
}

export function ContentDialog({ data, onSubmit, onClose }: ContentDialogProps) {
  const styles = useStyles();
  const { t } = useTranslation('flowbuilder');
  const [cards, setCards] = useState<Card[]>(() => cardsOf(data));
  const [problem, setProblem] = useState<string | null>(null);
  const [uploading, setUploading] = useState(false);

  const patch = (key: number, change: Partial<Card>) => setCards((all) => all.map((c) => (c.key === key ? { ...c, ...change } : c)));
  const move = (i: number, by: number) =>
    setCards((all) => {
      const next = [...all];
      const [card] = next.splice(i, 1);
      next.splice(i + by, 0, card);
      return next;
    });
  const add = (type: CardType) => setCards((all) => [...all, { key: ++keys, type, value: type === 'interval' ? '5' : '', record: type === 'audio' ? true : undefined }]);

  const save = async () => {
    const wrong = contentProblem(cards, t);
    setProblem(wrong);
    if (wrong) return;
    setUploading(true);
    try {
      const pending = cards.filter((c) => c.file);
      const files = await Promise.all(pending.map((c) => (c.type === 'img' ? compressImage(c.file!) : Promise.resolve(c.file!))));
      const names = files.length > 0 ? await flowsApi.upload(files) : [];
      const stored = new Map(pending.map((c, i) => [c.key, names[i]]));
      const counts: Record<string, number> = {};
      const elements = cards.map((c): FlowContentElement => {
        counts[c.type] = (counts[c.type] ?? 0) + 1;
        const number = `${c.type}${counts[c.type]}`;
        const value = stored.get(c.key) ?? c.value;
        switch (c.type) {
          case 'message':
            return { type: 'message', number, value };
          case 'interval':
            return { type: 'interval', number, value: Number(value) };
          case 'audio':
            return { type: 'audio', number, value, original: c.file?.name ?? c.original, record: !!c.record };
          default:
            return { type: c.type, number, value, original: c.file?.name ?? c.original };
        }
      });
      onSubmit({ seq: elements.map((e) => e.number), elements });
      onClose();
    } catch {
      toast.error(t('toasts.uploadFailed'));
    } finally {
      setUploading(false);
    }
  };

  return (
    <Dialog open onOpenChange={(_, d) => !d.open && !uploading && onClose()}>
      <DialogSurface className={styles.surface} data-testid="flow-content-dialog">
        <DialogBody>
          <DialogTitle>{t(data ? 'dialogs.singleBlock.edit' : 'dialogs.singleBlock.add')}</DialogTitle>
          <DialogContent>
            {problem ? (
              <MessageBar intent="error" data-testid="flow-content-problem">
                <MessageBarBody>{problem}</MessageBarBody>
              </MessageBar>
            ) : null}
            <div className={styles.list}>
              {cards.map((card, i) => {
                const kind = mediaKind(card.type);
                return (
                  <div key={card.key} className={styles.card} data-testid={`flow-content-card-${i + 1}`}>
                    <span className={styles.kind}>{t(`cards.${card.type}`)}</span>
                    <div className={styles.grow}>
                      {card.type === 'message' ? (
                        <Textarea rows={3} value={card.value} aria-label={t('cards.message')} onChange={(_, d) => patch(card.key, { value: d.value })} />
                      ) : card.type === 'interval' ? (
                        <Input
                          type="number"
                          min={1}
                          max={FLOW_INTERVAL_MAX_SECONDS}
                          value={card.value}
                          aria-label={t('cards.interval')}
                          contentAfter={<span>s</span>}
                          onChange={(_, d) => patch(card.key, { value: d.value })}
                        />
                      ) : kind ? (
                        <>
                          <input
                            type="file"
                            accept={FLOW_MEDIA_RULES[kind].accept}
                            aria-label={t(`cards.${card.type}`)}
                            onChange={(e) => {
                              const file = e.target.files?.[0];
                              if (!file) return;
                              const refused = fileProblem(kind, file, t);
                              if (refused) {
                                toast.error(refused);
                                e.target.value = '';
                                return;
                              }
                              patch(card.key, { file, original: file.name });
                            }}
                          />
                          {card.original ? <span>{card.original}</span> : null}
                          {card.type === 'audio' ? (
                            <Checkbox label={t('cards.voiceNote')} checked={!!card.record} onChange={(_, d) => patch(card.key, { record: !!d.checked })} />
                          ) : null}
                        </>
                      ) : null}
                    </div>
                    <Button appearance="subtle" icon={<ArrowUpRegular />} aria-label={t('cards.up')} disabled={i === 0} onClick={() => move(i, -1)} />
                    <Button appearance="subtle" icon={<ArrowDownRegular />} aria-label={t('cards.down')} disabled={i === cards.length - 1} onClick={() => move(i, 1)} />
                    <Button appearance="subtle" icon={<DeleteRegular />} aria-label={t('cards.remove')} onClick={() => setCards((all) => all.filter((c) => c.key !== card.key))} />
                  </div>
                );
              })}
            </div>
            <Menu>
              <MenuTrigger disableButtonEnhancement>
                <Button icon={<AddRegular />} disabled={cards.length >= FLOW_CONTENT_MAX_ELEMENTS} data-testid="flow-content-add">
                  {t('cards.add')}
                </Button>
              </MenuTrigger>
              <MenuPopover>
                <MenuList>
                  {(['message', 'interval', 'img', 'audio', 'video'] as const).map((type) => (
                    <MenuItem key={type} data-testid={`flow-content-add-${type}`} onClick={() => add(type)}>
                      {t(`cards.${type}`)}
                    </MenuItem>
                  ))}
                </MenuList>
              </MenuPopover>
            </Menu>
          </DialogContent>
          <DialogActions>
            {uploading ? <Spinner size="tiny" label={t('cards.uploading')} /> : null}
            <Button appearance="secondary" disabled={uploading} onClick={onClose}>
              {t('actions.cancel', { ns: 'common' })}
            </Button>
            <Button appearance="primary" disabled={uploading} data-testid="flow-content-save" onClick={() => void save()}>
              {t('actions.save', { ns: 'common' })}
            </Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
