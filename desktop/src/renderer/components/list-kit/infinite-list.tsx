import { useCallback, useEffect, useRef, type ReactNode } from 'react';
import { makeStyles, mergeClasses, Spinner } from '@fluentui/react-components';
import type { PagedResult } from '../../api/query';
import { ListBody } from '../list-body';

/** Infinite scroll loads the next page within this many pixels of the bottom (spec 02 section 9). */
export const LOAD_MORE_THRESHOLD_PX = 100;

/** True when a scroller's bottom edge is within `threshold` px of its content's end. */
export const nearBottom = (el: Pick<HTMLElement, 'scrollHeight' | 'scrollTop' | 'clientHeight'>, threshold = LOAD_MORE_THRESHOLD_PX): boolean =>
  el.scrollHeight - (el.scrollTop + el.clientHeight) <= threshold;

/**
 * Infinite scroll for a scrolling element: `onScroll` asks for the next page near the bottom, and when
 * the loaded rows do not fill the element (a tall window) the next page is asked for at once.
 */
export function useInfiniteScroll<E extends HTMLElement = HTMLDivElement>(hasMore: boolean, loadMore: () => unknown, itemCount: number) {
  const ref = useRef<E>(null);
  const onScroll = useCallback(
    (e: React.UIEvent<E>) => {
      if (hasMore && nearBottom(e.currentTarget)) void loadMore();
    },
    [hasMore, loadMore],
  );
  useEffect(() => {
    const el = ref.current;
    // Only a laid-out element (clientHeight > 0) can tell that its rows do not fill it.
    if (el && hasMore && el.clientHeight > 0 && el.scrollHeight <= el.clientHeight + LOAD_MORE_THRESHOLD_PX) void loadMore();
  }, [hasMore, loadMore, itemCount]);
  return { ref, onScroll };
}

const useStyles = makeStyles({
  scroller: { height: '100%', overflow: 'auto' },
  more: { display: 'flex', justifyContent: 'center', padding: '8px' },
});

export interface InfiniteListProps {
  /** The page's paged query (usePagedQuery): its rows (none: the empty state shows), whether more are coming, how to load them. */
  list: Pick<PagedResult<unknown>, 'isLoading' | 'items' | 'hasMore' | 'isLoadingMore' | 'loadMore'>;
  /** What the empty state says. */
  emptyTitle: ReactNode;
  testId?: string;
  className?: string;
  children: ReactNode;
}

/** A list page's scrolling body: spinner, empty state or the rows, loading more near the bottom. */
export function InfiniteList({ list, emptyTitle, testId, className, children }: InfiniteListProps) {
  const styles = useStyles();
  const itemCount = list.items.length;
  const { ref, onScroll } = useInfiniteScroll(list.hasMore, list.loadMore, itemCount);
  return (
    <div ref={ref} className={mergeClasses(styles.scroller, className)} onScroll={onScroll} data-testid={testId}>
      <ListBody loading={list.isLoading} empty={itemCount === 0} emptyTitle={emptyTitle}>
        {children}
        {list.isLoadingMore ? (
          <div className={styles.more}>
            <Spinner size="tiny" />
          </div>
        ) : null}
      </ListBody>
    </div>
  );
}
