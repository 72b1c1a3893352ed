import { makeStyles, tokens } from '@fluentui/react-components';

/** Below this width tables drop their secondary columns (a phone, a narrow window). */
export const NARROW_TABLE_MAX = 599;

/**
 * `secondary` hides a table column (put it on the header cell and on each row's cell) in narrow windows,
 * so that the columns left keep readable widths instead of overlapping.
 */
export const useResponsiveTable = makeStyles({
  secondary: { [`@media (max-width: ${NARROW_TABLE_MAX}px)`]: { display: 'none' } },
  /**
   * The actions column stays at the right edge of a table wider than its window (it scrolls sideways
   * under it), so edit and delete are reachable without scrolling to find them.
   */
  actions: {
    [`@media (max-width: ${NARROW_TABLE_MAX}px)`]: {
      position: 'sticky',
      right: 0,
      zIndex: 1,
      backgroundColor: tokens.colorNeutralBackground1,
      boxShadow: `-4px 0 4px -4px ${tokens.colorNeutralShadowAmbient}`,
    },
  },
});
