import { tokens, type GriffelStyle } from '@fluentui/react-components';

/**
 * Fields side by side in a dialog, wrapping to more lines as the dialog narrows. Each field takes four rows
 * of the row's grid (label, input, error, hint) through a subgrid, so the inputs of one line share a row
 * whatever their labels and errors: a label on two lines no longer puts its input below its neighbours',
 * and an error under one input moves no other. A label shorter than its neighbour's sits at the bottom of
 * its row, next to its input. Min widths of 0 keep each input inside its column.
 */
export const fieldRow = (minColumn: string): GriffelStyle => ({
  display: 'grid',
  gridTemplateColumns: `repeat(auto-fit, minmax(${minColumn}, 1fr))`,
  columnGap: tokens.spacingHorizontalM,
  rowGap: 0,
  '& > *': { minWidth: 0 },
  '& > .fui-Field': {
    gridRow: 'span 4',
    display: 'grid',
    gridTemplateRows: 'subgrid',
    rowGap: 0,
    alignContent: 'start',
    // The space between lines when the fields wrap.
    marginBottom: tokens.spacingVerticalS,
  },
  '& > .fui-Field > .fui-Field__label': { alignSelf: 'end' },
  '& input': { minWidth: 0 },
  '& .fui-Input, & .fui-Select, & .fui-Dropdown': { width: '100%', minWidth: 0 },
});
