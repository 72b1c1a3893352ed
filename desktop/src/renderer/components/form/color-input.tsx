import { Input, makeStyles, tokens } from '@fluentui/react-components';

const useStyles = makeStyles({
  // No minimum width of its own: in a narrow column the hex box shrinks instead of running under its neighbour.
  color: { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'center', minWidth: 0 },
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

/** The native colour input understands #rrggbb only; anything else shows black until a colour is picked. */
export const pickerValue = (color: string): string => {
  const value = color.trim();
  if (/^#[0-9a-f]{6}$/i.test(value)) return value.toLowerCase();
  const short = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/i.exec(value);
  return short ? `#${short[1]}${short[1]}${short[2]}${short[2]}${short[3]}${short[3]}`.toLowerCase() : '#000000';
};

export interface ColorInputProps {
  /** The colour as typed (a hex code, up to 9 characters). */
  value: string;
  onChange: (value: string) => void;
  /** The text box's accessible name (the field's label). */
  label: string;
  /** The colour picker's accessible name. */
  pickerLabel: string;
  /** `data-testid` of the text box; the picker gets `{testId}-picker`. */
  testId?: string;
}

/** A colour: the native picker beside the hex text, each filling the other (tags, queues). */
export function ColorInput({ value, onChange, label, pickerLabel, testId }: ColorInputProps) {
  const styles = useStyles();
  return (
    <div className={styles.color}>
      <input
        type="color"
        className={styles.picker}
        aria-label={pickerLabel}
        data-testid={testId ? `${testId}-picker` : undefined}
        value={pickerValue(value)}
        onChange={(e) => onChange(e.target.value)}
      />
      <Input value={value} maxLength={9} style={{ flex: 1 }} aria-label={label} data-testid={testId} onChange={(_, d) => onChange(d.value)} />
    </div>
  );
}
