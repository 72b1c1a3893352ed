import { makeStyles } from '@fluentui/react-components';

/** Below this width tables drop their secondary columns (a phone, a narrow window). */
export const NARROW_TABLE_MAX = 599;

/**
 * `secondary` hides a table column (put it on the header cell and on each row's cell) in narrow windows,
 * so that the columns left keep readable widths instead of overlapping.
 */
export const useResponsiveTable = makeStyles({
  secondary: { [`@media (max-width: ${NARROW_TABLE_MAX}px)`]: { display: 'none' } },
});
