import { useEffect, useLayoutEffect, useMemo, useRef } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { makeStyles, mergeClasses, Spinner, Text, tokens } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { formatDate, formatDateTime, formatTime } from '../../../i18n/format';
import type { Message, TicketLog } from '../api/types';
import { activityText } from '../lib/activity-text';
import { buildRows } from '../lib/message-rows';
import { observeRectWithFallback } from '../lib/virtual';
import { MessageBubble } from './message-bubble';

/** Older messages when within 50 px of the top (spec 01 section 9). */
const LOAD_OLDER_PX = 50;

const useStyles = makeStyles({
  scroller: { flex: 1, minHeight: 0, overflowY: 'auto', overflowAnchor: 'none', backgroundColor: tokens.colorNeutralBackground3 },
  separator: { display: 'flex', justifyContent: 'center', padding: '8px 0' },
  ticketSeparator: { display: 'flex', flexDirection: 'column', alignItems: 'center', gap: '4px', padding: '8px 0' },
  chip: {
    padding: '2px 12px',
    borderRadius: tokens.borderRadiusCircular,
    backgroundColor: tokens.colorNeutralBackground1,
    boxShadow: tokens.shadow2,
    color: tokens.colorNeutralForeground2,
    fontSize: tokens.fontSizeBase200,
  },
  ticketChip: { backgroundColor: tokens.colorBrandBackground2, color: tokens.colorBrandForeground2 },
  activity: { display: 'flex', justifyContent: 'center', padding: '4px 12px', textAlign: 'center' },
  activityChip: { fontStyle: 'italic' },
  loading: { display: 'flex', justifyContent: 'center', padding: '6px' },
});

export interface MessageListProps {
  messages: Message[];
  /** The ticket's activity trail, shown between the messages by time (never part of the chat itself). */
  logs?: TicketLog[];
  hasMore: boolean;
  loading: boolean;
  loadOlder: () => Promise<boolean>;
  isGroup?: boolean;
  readOnly?: boolean;
  onReply?: (message: Message) => void;
  onDelete?: (message: Message) => void;
}

export function MessageList({ messages, logs, hasMore, loading, loadOlder, isGroup, readOnly, onReply, onDelete }: MessageListProps) {
  const styles = useStyles();
  const { t } = useTranslation('tickets');
  const scrollRef = useRef<HTMLDivElement>(null);
  const rows = useMemo(() => buildRows(messages, logs, hasMore), [messages, logs, hasMore]);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: (i) => (rows[i]?.kind === 'message' ? 64 : 40),
    overscan: 10,
    initialRect: { width: 600, height: 800 },
    observeElementRect: observeRectWithFallback({ width: 600, height: 800 }),
    getItemKey: (i) => rows[i]?.key ?? i,
  });

  // Stick to the newest message: on the first load, and when one arrives while the user is near the bottom.
  const lastId = messages[messages.length - 1]?.id;
  const firstId = messages[0]?.id;
  const prevFirst = useRef<number | undefined>(undefined);
  const prevLast = useRef<number | undefined>(undefined);
  const anchor = useRef<{ height: number; top: number } | null>(null);
  const nearBottom = useRef(true);

  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (!el || rows.length === 0) return;
    if (anchor.current && firstId !== prevFirst.current) {
      // Older messages were prepended: keep the view where it was.
      const { height, top } = anchor.current;
      el.scrollTop = top + (virtualizer.getTotalSize() - height);
      anchor.current = null;
    } else if (prevLast.current === undefined || (lastId !== prevLast.current && nearBottom.current)) {
      virtualizer.scrollToIndex(rows.length - 1, { align: 'end' });
    }
    prevFirst.current = firstId;
    prevLast.current = lastId;
  }, [firstId, lastId, rows.length, virtualizer]);

  // After the rows are measured the real height is known: settle at the bottom once more.
  useEffect(() => {
    if (!nearBottom.current || rows.length === 0) return;
    const id = requestAnimationFrame(() => virtualizer.scrollToIndex(rows.length - 1, { align: 'end' }));
    return () => cancelAnimationFrame(id);
  }, [lastId, rows.length, virtualizer]);

  const onScroll = () => {
    const el = scrollRef.current;
    if (!el) return;
    nearBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 120;
    if (el.scrollTop < LOAD_OLDER_PX && hasMore && !loading && !anchor.current) {
      anchor.current = { height: virtualizer.getTotalSize(), top: el.scrollTop };
      void loadOlder().then((loaded) => {
        if (!loaded) anchor.current = null;
      });
    }
  };

  return (
    <div ref={scrollRef} className={styles.scroller} onScroll={onScroll} data-testid="message-list">
      {loading && messages.length === 0 ? (
        <div className={styles.loading}>
          <Spinner size="small" />
        </div>
      ) : null}
      <div style={{ height: virtualizer.getTotalSize(), position: 'relative', width: '100%' }}>
        {virtualizer.getVirtualItems().map((item) => {
          const row = rows[item.index];
          if (!row) return null;
          return (
            <div
              key={item.key}
              data-index={item.index}
              ref={virtualizer.measureElement}
              style={{ position: 'absolute', top: 0, left: 0, width: '100%', transform: `translateY(${item.start}px)` }}
            >
              {row.kind === 'date' ? (
                <div className={styles.separator} data-testid="date-separator">
                  <Text className={styles.chip}>{formatDate(row.date)}</Text>
                </div>
              ) : row.kind === 'activity' ? (
                <div className={styles.activity} data-testid="activity-line" role="note">
                  <Text className={mergeClasses(styles.chip, styles.activityChip)}>
                    {activityText(t, row.log)} · {formatTime(row.log.createdAt)}
                  </Text>
                </div>
              ) : row.kind === 'ticket' ? (
                <div className={styles.ticketSeparator} data-testid={`ticket-separator-${row.ticketId}`}>
                  <Text className={mergeClasses(styles.chip, styles.ticketChip)}>
                    {t('conversation.ticketClosed', { id: row.closedTicketId, date: formatDateTime(row.lastMessageAt) })}
                  </Text>
                  <Text className={mergeClasses(styles.chip, styles.ticketChip)}>
                    {t('conversation.ticketStarted', { id: row.ticketId, date: formatDateTime(row.date) })}
                  </Text>
                </div>
              ) : (
                <MessageBubble message={row.message} reactions={row.reactions} showAuthor={isGroup} readOnly={readOnly} onReply={onReply} onDelete={onDelete} />
              )}
            </div>
          );
        })}
      </div>
    </div>
  );
}
