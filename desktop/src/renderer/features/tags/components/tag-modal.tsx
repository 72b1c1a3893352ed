import { useState } from 'react';
import {
  Dialog,
  DialogBody,
  DialogContent,
  DialogSurface,
  DialogTitle,
  Field,
  Input,
  Switch,
  makeStyles,
  tokens,
} from '@fluentui/react-components';
import { TAG_DEFAULT_COLOR, createTagSchema, updateTagSchema } from '@atrium/shared';
import { useTranslation } from 'react-i18next';
import { queryClient } from '../../../api/query';
import { SaveActions } from '../../../components/form/save-actions';
import { validate, type FieldErrors } from '../../../components/form/validation';
import { toast } from '../../../components/toasts';
import { useSaving } from '../../../hooks/use-saving';
import { TAGS_KEY, tagsApi, type Tag } from '../api/tags';

const useStyles = makeStyles({
  surface: { maxWidth: '480px', width: '100%' },
  content: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  color: { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'center' },
  picker: {
    width: '40px',
    height: '32px',
    padding: 0,
    border: `1px solid ${tokens.colorNeutralStroke1}`,
    borderRadius: tokens.borderRadiusMedium,
    backgroundColor: 'transparent',
    cursor: 'pointer',
    flexShrink: 0,
  },
});

/** The native colour input understands #rrggbb only. */
const pickerValue = (color: string): string => {
  const value = color.trim();
  if (/^#[0-9a-f]{6}$/i.test(value)) return value.toLowerCase();
  const short = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/i.exec(value);
  return short ? `#${short[1]}${short[1]}${short[2]}${short[2]}${short[3]}${short[3]}`.toLowerCase() : '#000000';
};

export interface TagModalProps {
  /** The tag to edit; none to add one. */
  tag?: Tag;
  /** The kanban switch shows to admins only (spec 02 section 6). */
  canSetKanban: boolean;
  onClose: () => void;
}

/** Add or edit a tag: name, colour and (admins) whether it is a kanban lane. */
export function TagModal({ tag, canSetKanban, onClose }: TagModalProps) {
  const styles = useStyles();
  const { t } = useTranslation('tags');
  const { t: tc } = useTranslation();
  const [name, setName] = useState(tag?.name ?? '');
  const [color, setColor] = useState(tag?.color ?? TAG_DEFAULT_COLOR);
  const [kanban, setKanban] = useState(tag?.kanban === 1);
  const [errors, setErrors] = useState<FieldErrors>({});
  const { saving, run } = useSaving();

  const submit = async () => {
    const payload: Record<string, unknown> = { name, color };
    if (canSetKanban) payload.kanban = kanban ? 1 : 0;
    const result = tag ? validate(updateTagSchema, payload, tc) : validate(createTagSchema, payload, tc);
    if (!result.ok) {
      setErrors(result.errors);
      return;
    }
    await run(async () => {
      if (tag) await tagsApi.update(tag.id, result.data);
      else await tagsApi.create(result.data as Parameters<typeof tagsApi.create>[0]);
      void queryClient.invalidateQueries({ queryKey: TAGS_KEY });
      toast.success(t('toasts.saved'));
      onClose();
    });
  };

  return (
    <Dialog open onOpenChange={(_, d) => !d.open && !saving && onClose()}>
      <DialogSurface className={styles.surface} data-testid="tag-modal">
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
          <DialogBody>
            <DialogTitle>{tag ? t('modal.editTitle') : t('modal.addTitle')}</DialogTitle>
            <DialogContent className={styles.content}>
              <Field label={t('modal.name')} required validationMessage={errors.name}>
                <Input
                  value={name}
                  maxLength={100}
                  autoFocus
                  data-testid="tag-name"
                  onChange={(_, d) => {
                    setName(d.value);
                    setErrors(({ name: _n, ...rest }) => rest);
                  }}
                />
              </Field>
              <Field label={t('modal.color')} validationMessage={errors.color}>
                <div className={styles.color}>
                  <input
                    type="color"
                    className={styles.picker}
                    aria-label={t('modal.colorPicker')}
                    data-testid="tag-color-picker"
                    value={pickerValue(color)}
                    onChange={(e) => setColor(e.target.value)}
                  />
                  <Input
                    value={color}
                    maxLength={9}
                    style={{ flex: 1 }}
                    aria-label={t('modal.color')}
                    data-testid="tag-color"
                    onChange={(_, d) => {
                      setColor(d.value);
                      setErrors(({ color: _c, ...rest }) => rest);
                    }}
                  />
                </div>
              </Field>
              {canSetKanban ? (
                <Field hint={t('modal.kanbanHint')}>
                  <Switch
                    label={t('modal.kanban')}
                    checked={kanban}
                    data-testid="tag-kanban"
                    onChange={(_, d) => setKanban(d.checked)}
                  />
                </Field>
              ) : null}
            </DialogContent>
            <SaveActions saving={saving} onCancel={onClose} cancelTestId="tag-cancel" saveTestId="tag-save" />
          </DialogBody>
        </form>
      </DialogSurface>
    </Dialog>
  );
}
