import { useCallback, useEffect, useRef } from 'react';
import type { ReactNode } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { makeStyles, Spinner, Text, tokens } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import type { Ticket } from '../api/types';
import { observeRectWithFallback } from '../lib/virtual';
import { TicketListItem } from './ticket-list-item';

/** Rows have a fixed height, so 10,000 tickets cost no measuring. */
export const TICKET_ROW_HEIGHT = 92;
/** Next page when within 100 px of the bottom (spec 01 section 9). */
const LOAD_MORE_PX = 100;

const useStyles = makeStyles({
  scroller: { flex: 1, minHeight: 0, overflowY: 'auto', position: 'relative' },
  empty: { padding: tokens.spacingVerticalXXL, textAlign: 'center', display: 'flex', flexDirection: 'column', gap: '4px' },
  hint: { color: tokens.colorNeutralForeground3 },
});

export interface TicketListProps {
  tickets: Ticket[];
  loading: boolean;
  hasMore: boolean;
  loadMore: () => void;
  selectedUuid?: string;
  isAdmin: boolean;
  onOpen: (ticket: Ticket) => void;
  onAccept: (ticket: Ticket) => void;
  onClose: (ticket: Ticket) => void;
  onReopen: (ticket: Ticket) => void;
  onPeek: (ticket: Ticket) => void;
  label?: string;
  /** What an empty list says instead of the generic text (e.g. why an agent's inbox is empty). */
  empty?: ReactNode;
}

export function TicketList({ tickets, loading, hasMore, loadMore, selectedUuid, label, empty, ...itemProps }: TicketListProps) {
  const styles = useStyles();
  const { t } = useTranslation('tickets');
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: tickets.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => TICKET_ROW_HEIGHT,
    overscan: 8,
    initialRect: { width: 400, height: 800 },
    observeElementRect: observeRectWithFallback({ width: 400, height: 800 }),
    getItemKey: (index) => tickets[index]?.id ?? index,
  });

  const check = useCallback(() => {
    const el = scrollRef.current;
    if (!el || !hasMore || loading) return;
    if (el.scrollHeight - el.scrollTop - el.clientHeight < LOAD_MORE_PX) loadMore();
  }, [hasMore, loading, loadMore]);

  // A first page shorter than the view still loads the next one.
  useEffect(() => {
    const el = scrollRef.current;
    if (el && el.clientHeight > 0 && el.scrollHeight <= el.clientHeight) check();
  }, [tickets.length, check]);

  if (!loading && tickets.length === 0) {
    if (empty) return <div className={styles.empty}>{empty}</div>;
    return (
      <div className={styles.empty}>
        <Text weight="semibold">{t('list.empty')}</Text>
        <Text size={200} className={styles.hint}>
          {t('list.emptyHint')}
        </Text>
      </div>
    );
  }

  return (
    <div ref={scrollRef} className={styles.scroller} onScroll={check} role="list" aria-label={label} aria-busy={loading}>
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative', width: '100%' }}>
        {virtualizer.getVirtualItems().map((row) => {
          const ticket = tickets[row.index];
          if (!ticket) return null;
          return (
            <div
              key={row.key}
              style={{ position: 'absolute', top: 0, left: 0, width: '100%', height: row.size, transform: `translateY(${row.start}px)` }}
            >
              <TicketListItem ticket={ticket} selected={ticket.uuid === selectedUuid} {...itemProps} />
            </div>
          );
        })}
      </div>
      {loading ? (
        <div className={styles.empty}>
          <Spinner size="tiny" label={t('list.loading')} />
        </div>
      ) : null}
    </div>
  );
}
