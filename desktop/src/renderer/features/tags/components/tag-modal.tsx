import { Field, Input, Switch, makeStyles, tokens } from '@fluentui/react-components';
import { TAG_DEFAULT_COLOR, createTagSchema, updateTagSchema, type UpdateTagInput } from '@atrium/shared';
import { useTranslation } from 'react-i18next';
import { queryClient } from '../../../api/query';
import { FormDialog } from '../../../components/list-kit';
import { toast } from '../../../components/toasts';
import { TAGS_KEY, tagsApi, type Tag } from '../api/tags';

const useStyles = makeStyles({
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

type TagValues = { name: string; color: string; kanban: boolean };

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
  const initialValues: TagValues = { name: tag?.name ?? '', color: tag?.color ?? TAG_DEFAULT_COLOR, kanban: tag?.kanban === 1 };
  return (
    <FormDialog<TagValues, UpdateTagInput>
      title={tag ? t('modal.editTitle') : t('modal.addTitle')}
      schema={tag ? updateTagSchema : createTagSchema}
      initialValues={initialValues}
      toPayload={({ name, color, kanban }) => (canSetKanban ? { name, color, kanban: kanban ? 1 : 0 } : { name, color })}
      testId="tag-modal"
      saveTestId="tag-save"
      cancelTestId="tag-cancel"
      onClose={onClose}
      onSubmit={async (data) => {
        if (tag) await tagsApi.update(tag.id, data);
        else await tagsApi.create(data as Parameters<typeof tagsApi.create>[0]);
        void queryClient.invalidateQueries({ queryKey: TAGS_KEY });
        toast.success(t('toasts.saved'));
      }}
    >
      {(form) => (
        <>
          <Field label={t('modal.name')} required {...form.field('name')}>
            <Input maxLength={100} autoFocus data-testid="tag-name" {...form.text('name')} />
          </Field>
          <Field label={t('modal.color')} {...form.field('color')}>
            <div className={styles.color}>
              <input
                type="color"
                className={styles.picker}
                aria-label={t('modal.colorPicker')}
                data-testid="tag-color-picker"
                value={pickerValue(form.values.color)}
                onChange={(e) => form.set('color', e.target.value)}
              />
              <Input maxLength={9} style={{ flex: 1 }} aria-label={t('modal.color')} data-testid="tag-color" {...form.text('color')} />
            </div>
          </Field>
          {canSetKanban ? (
            <Field hint={t('modal.kanbanHint')}>
              <Switch label={t('modal.kanban')} data-testid="tag-kanban" {...form.check('kanban')} />
            </Field>
          ) : null}
        </>
      )}
    </FormDialog>
  );
}
