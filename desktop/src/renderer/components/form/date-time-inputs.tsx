import { useState } from 'react';
import { Input, makeStyles, tokens, type InputProps } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { dateFromDisplay, dateToDisplay, isTime, maskDate, maskTime } from './date-time';

const useStyles = makeStyles({
  date: { width: '9.5em', minWidth: 0 },
  time: { width: '6em', minWidth: 0 },
  pair: { display: 'flex', gap: tokens.spacingHorizontalS, flexWrap: 'wrap' },
});

type Common = Omit<InputProps, 'value' | 'onChange' | 'type' | 'defaultValue'>;

/** A 24-hour time typed as HH:mm; `onChange` gets the text as typed (a whole time once complete). */
export function TimeInput({ value, onChange, className, ...rest }: Common & { value: string; onChange: (value: string) => void }) {
  const styles = useStyles();
  const { t } = useTranslation();
  return (
    <Input
      {...rest}
      className={className ?? styles.time}
      inputMode="numeric"
      autoComplete="off"
      placeholder={t('dateTime.timePlaceholder')}
      value={value}
      onChange={(_, d) => onChange(maskTime(d.value))}
    />
  );
}

/**
 * A date typed as dd/MM/yyyy. `value` and `onChange` speak ISO (yyyy-MM-dd); `onChange` is called once the
 * date typed is whole and real ('' when it is cleared).
 */
export function DateInput({ value, onChange, className, ...rest }: Common & { value: string; onChange: (value: string) => void }) {
  const styles = useStyles();
  const { t } = useTranslation();
  const [text, setText] = useState(() => dateToDisplay(value));
  // A value set from outside (a reset, a preset) replaces what is typed.
  const [seen, setSeen] = useState(value);
  if (value !== seen) {
    setSeen(value);
    if (value !== (dateFromDisplay(text) ?? '')) setText(dateToDisplay(value));
  }
  return (
    <Input
      {...rest}
      className={className ?? styles.date}
      inputMode="numeric"
      autoComplete="off"
      placeholder={t('dateTime.datePlaceholder')}
      value={text}
      onChange={(_, d) => {
        const next = maskDate(d.value);
        setText(next);
        const iso = dateFromDisplay(next);
        if (iso) onChange(iso);
        else if (!next) onChange('');
      }}
    />
  );
}

/**
 * A date and a 24-hour time (dd/MM/yyyy and HH:mm). `value` and `onChange` speak the local
 * "yyyy-MM-ddTHH:mm" of a datetime-local input; while either part is incomplete `onChange` gets ''.
 */
export function DateTimeInput({
  value,
  onChange,
  disabled,
  testId,
  label,
}: {
  value: string;
  onChange: (value: string) => void;
  disabled?: boolean;
  testId?: string;
  /** The accessible name of the pair (each part adds "date" or "time"). */
  label: string;
}) {
  const styles = useStyles();
  const { t } = useTranslation();
  const [date, setDate] = useState(() => dateToDisplay(value));
  const [time, setTime] = useState(() => /T(\d{2}:\d{2})/.exec(value)?.[1] ?? '');
  const emit = (nextDate: string, nextTime: string) => {
    const iso = dateFromDisplay(nextDate);
    onChange(iso && isTime(nextTime) ? `${iso}T${nextTime}` : '');
  };
  return (
    <div className={styles.pair} data-testid={testId}>
      <Input
        className={styles.date}
        inputMode="numeric"
        autoComplete="off"
        disabled={disabled}
        aria-label={`${label} (${t('dateTime.date')})`}
        placeholder={t('dateTime.datePlaceholder')}
        data-testid={testId ? `${testId}-date` : undefined}
        value={date}
        onChange={(_, d) => {
          const next = maskDate(d.value);
          setDate(next);
          emit(next, time);
        }}
      />
      <Input
        className={styles.time}
        inputMode="numeric"
        autoComplete="off"
        disabled={disabled}
        aria-label={`${label} (${t('dateTime.time')})`}
        placeholder={t('dateTime.timePlaceholder')}
        data-testid={testId ? `${testId}-time` : undefined}
        value={time}
        onChange={(_, d) => {
          const next = maskTime(d.value);
          setTime(next);
          emit(date, next);
        }}
      />
    </div>
  );
}
