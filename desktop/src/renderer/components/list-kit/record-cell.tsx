import type { ReactNode } from 'react';
import { makeStyles, tokens } from '@fluentui/react-components';

const useStyles = makeStyles({
  cell: { minWidth: 0, overflow: 'hidden', paddingBlock: '4px' },
  // On a narrow screen the badges go under the name instead of squeezing it.
  line: {
    display: 'flex',
    flexWrap: 'wrap',
    alignItems: 'center',
    columnGap: tokens.spacingHorizontalS,
    rowGap: '2px',
    minWidth: 0,
    '& > :not(:first-child)': { flexShrink: 0 },
  },
  name: { fontWeight: tokens.fontWeightSemibold, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', maxWidth: '100%' },
  preview: {
    display: 'block',
    // Adds nothing to the column's width (a long text would push the other columns off a narrow screen);
    // it takes the width the column has and is cut to it.
    width: 0,
    minWidth: '100%',
    color: tokens.colorNeutralForeground3,
    fontSize: tokens.fontSizeBase200,
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    whiteSpace: 'nowrap',
  },
});

export interface RecordCellProps {
  /** The record's name, in bold on the first line (cut with an ellipsis when too long). */
  name: ReactNode;
  nameTestId?: string;
  /** Marks after the name (badges). */
  badges?: ReactNode;
  /** One line of the record's text under the name, cut to fit; the whole of it in the tooltip. */
  preview?: string;
}

/** A list row's main cell: the name with its badges, and a line of preview under it. */
export function RecordCell({ name, nameTestId, badges, preview }: RecordCellProps) {
  const styles = useStyles();
  return (
    <div className={styles.cell}>
      <span className={styles.line}>
        <span className={styles.name} data-testid={nameTestId}>
          {name}
        </span>
        {badges}
      </span>
      {preview !== undefined ? (
        <span className={styles.preview} title={preview}>
          {preview}
        </span>
      ) : null}
    </div>
  );
}
