import { Field, Input, Switch } from '@fluentui/react-components';
import { TAG_DEFAULT_COLOR, createTagSchema, updateTagSchema, type UpdateTagInput } from '@atrium/shared';
import { useTranslation } from 'react-i18next';
import { ColorInput } from '../../../components/form/color-input';
import { FormDialog, saveRecord } from '../../../components/list-kit';
import { TAGS_KEY, tagsApi, type Tag } from '../api/tags';

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
      onSubmit={(data) => saveRecord(tagsApi, tag?.id, data, { listKey: TAGS_KEY, savedMessage: t('toasts.saved') })}
    >
      {(form) => (
        <>
          <Field label={t('modal.name')} required {...form.field('name')}>
            <Input maxLength={100} autoFocus data-testid="tag-name" {...form.text('name')} />
          </Field>
          <Field label={t('modal.color')} {...form.field('color')}>
            <ColorInput
              value={form.values.color}
              onChange={(color) => form.set('color', color)}
              label={t('modal.color')}
              pickerLabel={t('modal.colorPicker')}
              testId="tag-color"
            />
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
