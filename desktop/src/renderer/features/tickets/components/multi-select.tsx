import { Combobox, Option, makeStyles } from '@fluentui/react-components';

const useStyles = makeStyles({ root: { minWidth: '120px', maxWidth: '100%' } });

export interface MultiSelectProps {
  label: string;
  options: { id: number; name: string; color?: string }[];
  selected: number[];
  onChange: (ids: number[]) => void;
  testId?: string;
}

/** A compact multi-select (queues, tags, users) showing how many are chosen. */
export function MultiSelect({ label, options, selected, onChange, testId }: MultiSelectProps) {
  const styles = useStyles();
  const names = options.filter((o) => selected.includes(o.id)).map((o) => o.name);
  return (
    <Combobox
      className={styles.root}
      size="small"
      multiselect
      aria-label={label}
      placeholder={label}
      data-testid={testId}
      value={names.length > 0 ? `${label}: ${names.length}` : ''}
      selectedOptions={selected.map(String)}
      onOptionSelect={(_, data) => onChange(data.selectedOptions.map(Number))}
    >
      {options.map((o) => (
        <Option key={o.id} value={String(o.id)} text={o.name}>
          {o.color ? (
            <span style={{ display: 'inline-block', width: 10, height: 10, borderRadius: 5, background: o.color, marginRight: 6 }} />
          ) : null}
          {o.name}
        </Option>
      ))}
    </Combobox>
  );
}
