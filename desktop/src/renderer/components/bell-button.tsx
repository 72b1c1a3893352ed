import type { ReactElement, ReactNode } from 'react';
import {
  Button,
  CounterBadge,
  makeStyles,
  Popover,
  PopoverSurface,
  PopoverTrigger,
  Text,
  tokens,
  Tooltip,
} from '@fluentui/react-components';

const useStyles = makeStyles({
  anchor: { position: 'relative', display: 'inline-flex' },
  badge: { position: 'absolute', top: '0', right: '0', pointerEvents: 'none' },
  surface: { width: '340px', maxHeight: '420px', overflowY: 'auto', padding: tokens.spacingVerticalM },
  empty: { color: tokens.colorNeutralForeground3, padding: tokens.spacingVerticalM },
});

/**
 * The rows of a bell's list (notifications, internal chat): a button per row, an avatar or icon, a body
 * whose lines end in an ellipsis. A feature merges its own extras (see useBellListStyles's users).
 */
export const useBellListStyles = makeStyles({
  list: { display: 'flex', flexDirection: 'column' },
  item: {
    display: 'flex',
    gap: tokens.spacingHorizontalS,
    alignItems: 'center',
    padding: tokens.spacingVerticalS,
    borderRadius: tokens.borderRadiusMedium,
    cursor: 'pointer',
    border: 'none',
    background: 'none',
    color: 'inherit',
    textAlign: 'left',
    font: 'inherit',
    ':hover': { backgroundColor: tokens.colorNeutralBackground1Hover },
  },
  body: { flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column' },
  ellipsis: { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', color: tokens.colorNeutralForeground3 },
});

export interface BellButtonProps {
  label: string;
  icon: ReactElement;
  /** Shown as a counter badge when above 0. */
  count?: number;
  /** A dot instead of a number. */
  dot?: boolean;
  /** The popover's content; `emptyText` when there is none. */
  children?: ReactNode;
  emptyText?: string;
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
}

/** A top-bar icon with a count and a popover list: notifications, announcements, internal chat. */
export function BellButton({ label, icon, count = 0, dot, children, emptyText, open, onOpenChange }: BellButtonProps) {
  const styles = useStyles();
  // One control: the button is the popover's trigger; the badge sits beside it in a plain wrapper (a
  // wrapping span as the trigger made a second, unnamed Tab stop around the button).
  return (
    <span className={styles.anchor}>
      <Popover open={open} onOpenChange={(_, data) => onOpenChange?.(data.open)} positioning="below-end" withArrow trapFocus>
        <PopoverTrigger disableButtonEnhancement>
          <Tooltip content={label} relationship="label">
            <Button appearance="subtle" icon={icon} aria-label={label} />
          </Tooltip>
        </PopoverTrigger>
        <PopoverSurface className={styles.surface} aria-label={label}>
          {children ?? <Text className={styles.empty}>{emptyText}</Text>}
        </PopoverSurface>
      </Popover>
      {dot || count > 0 ? (
        <CounterBadge className={styles.badge} size="small" color="danger" dot={dot} count={count} overflowCount={99} aria-hidden />
      ) : null}
    </span>
  );
}
