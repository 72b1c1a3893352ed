import { useState } from 'react';
import { Combobox, Option, makeStyles } from '@fluentui/react-components';
import { tagNameSchema } from '@atrium/shared';
import { useTranslation } from 'react-i18next';
import type { TagRef } from '../api/types';

const useStyles = makeStyles({ root: { minWidth: '140px', maxWidth: '100%' } });

/** The option that creates a tag from the text typed. */
export const NEW_TAG_OPTION = '__new_tag__';

/** The name typed, when it may become a new tag: valid (3+ characters) and not one the company has (any case). */
export const newTagName = (typed: string, tags: readonly Pick<TagRef, 'name'>[]): string | null => {
  const name = typed.trim();
  if (!tagNameSchema.safeParse(name).success) return null;
  return tags.some((tag) => tag.name.toLocaleLowerCase() === name.toLocaleLowerCase()) ? null : name;
};

export interface TagPickerProps {
  label: string;
  tags: TagRef[];
  selected: number[];
  /** The ticket's tags become these ids. */
  onChange: (ids: number[]) => void;
  /** A tag typed by name that does not exist yet: it is created and added to the ticket. */
  onCreate: (name: string) => void;
}

/**
 * The conversation's tags: pick existing ones, or type a name to filter them; a name the company has not
 * used yet offers to create that tag (as the old product's tags bar did).
 */
export function TagPicker({ label, tags, selected, onChange, onCreate }: TagPickerProps) {
  const styles = useStyles();
  const { t } = useTranslation('tickets');
  const [typed, setTyped] = useState('');
  const query = typed.trim().toLocaleLowerCase();
  const shown = query ? tags.filter((tag) => tag.name.toLocaleLowerCase().includes(query)) : tags;
  const creatable = newTagName(typed, tags);
  const count = tags.filter((tag) => selected.includes(tag.id)).length;
  return (
    <Combobox
      className={styles.root}
      size="small"
      multiselect
      freeform
      aria-label={label}
      placeholder={count > 0 ? `${label}: ${count}` : t('conversation.tagsPlaceholder')}
      data-testid="tags-picker"
      value={typed}
      selectedOptions={selected.map(String)}
      onChange={(e) => setTyped(e.target.value)}
      onOpenChange={(_, d) => {
        if (!d.open) setTyped('');
      }}
      onOptionSelect={(_, data) => {
        if (data.optionValue === NEW_TAG_OPTION) {
          if (creatable) onCreate(creatable);
          setTyped('');
          return;
        }
        onChange(data.selectedOptions.filter((v) => v !== NEW_TAG_OPTION).map(Number));
      }}
    >
      {shown.map((tag) => (
        <Option key={tag.id} value={String(tag.id)} text={tag.name}>
          <span style={{ display: 'inline-block', width: 10, height: 10, borderRadius: 5, background: tag.color, marginRight: 6 }} />
          {tag.name}
        </Option>
      ))}
      {creatable ? (
        <Option key={NEW_TAG_OPTION} value={NEW_TAG_OPTION} text={creatable} data-testid="tags-picker-create">
          {t('conversation.createTag', { name: creatable })}
        </Option>
      ) : null}
    </Combobox>
  );
}
