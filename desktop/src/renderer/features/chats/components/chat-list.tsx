import { Avatar, CounterBadge, makeStyles, mergeClasses, Spinner, Text, tokens } from '@fluentui/react-components';
import { Chat24Regular } from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import { EditDeleteActions, EmptyState, useInfiniteScroll } from '../../../components/list-kit';
import { formatListTime } from '../../../i18n/format';
import type { Chat } from '../api/chats';
import { othersOf, unreadsOf } from '../lib/chat-rules';

const useStyles = makeStyles({
  root: { flex: 1, minHeight: 0, overflowY: 'auto', display: 'flex', flexDirection: 'column' },
  item: {
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalS,
    padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalM}`,
    borderBottom: `1px solid ${tokens.colorNeutralStroke2}`,
    cursor: 'pointer',
    minWidth: 0,
    ':hover': { backgroundColor: tokens.colorNeutralBackground1Hover },
  },
  selected: { backgroundColor: tokens.colorNeutralBackground1Selected, ':hover': { backgroundColor: tokens.colorNeutralBackground1Selected } },
  body: { flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column' },
  titleRow: { display: 'flex', alignItems: 'baseline', gap: tokens.spacingHorizontalS, minWidth: 0 },
  title: { flex: 1, minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
  line: { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', color: tokens.colorNeutralForeground3 },
  time: { color: tokens.colorNeutralForeground3, flexShrink: 0 },
  side: { display: 'flex', alignItems: 'center', gap: '2px', flexShrink: 0 },
  loading: { display: 'flex', justifyContent: 'center', padding: tokens.spacingVerticalS },
});

export interface ChatListProps {
  chats: Chat[];
  userId: number | undefined;
  selectedId: number | undefined;
  loading: boolean;
  hasMore: boolean;
  loadMore: () => void;
  onSelect: (chat: Chat) => void;
  onEdit: (chat: Chat) => void;
  onDelete: (chat: Chat) => void;
}

/** The user's chats: title, last message, time and unread count; the owner's have edit and delete. */
export function ChatList({ chats, userId, selectedId, loading, hasMore, loadMore, onSelect, onEdit, onDelete }: ChatListProps) {
  const styles = useStyles();
  const { t } = useTranslation('chats');
  // The next page within 100 px of the bottom (spec 02 section 9), or at once when the rows do not fill the list.
  const { ref, onScroll } = useInfiniteScroll(hasMore && !loading, loadMore, chats.length);
  if (!loading && chats.length === 0) {
    return <EmptyState icon={<Chat24Regular />} title={t('list.empty')} description={t('list.emptyHint')} />;
  }
  return (
    <div ref={ref} className={styles.root} role="list" onScroll={onScroll} data-testid="chat-list">
      {chats.map((chat) => {
        const unread = unreadsOf(chat, userId);
        const owner = chat.ownerId === userId;
        return (
          <div
            key={chat.id}
            role="listitem"
            tabIndex={0}
            aria-current={chat.id === selectedId ? 'true' : undefined}
            className={mergeClasses(styles.item, chat.id === selectedId && styles.selected)}
            data-testid={`chat-item-${chat.id}`}
            onClick={() => onSelect(chat)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' || e.key === ' ') {
                e.preventDefault();
                onSelect(chat);
              }
            }}
          >
            <Avatar size={36} name={chat.title} color="colorful" />
            <span className={styles.body}>
              <span className={styles.titleRow}>
                <Text weight={unread > 0 ? 'bold' : 'semibold'} className={styles.title}>
                  {chat.title}
                </Text>
                <Text size={100} className={styles.time}>
                  {formatListTime(chat.updatedAt)}
                </Text>
              </span>
              <Text size={200} className={styles.line} data-testid={`chat-last-${chat.id}`}>
                {chat.lastMessage || othersOf(chat, userId)}
              </Text>
            </span>
            <span className={styles.side}>
              {unread > 0 ? (
                <CounterBadge size="small" color="danger" count={unread} aria-label={t('list.unread', { count: unread })} data-testid={`chat-unread-${chat.id}`} />
              ) : null}
              {owner ? (
                // The row opens the chat; its buttons do not.
                <span onClick={(e) => e.stopPropagation()} onKeyDown={(e) => e.stopPropagation()} role="presentation">
                  <EditDeleteActions testIdPrefix="chat" id={chat.id} onEdit={() => onEdit(chat)} onDelete={() => onDelete(chat)} />
                </span>
              ) : null}
            </span>
          </div>
        );
      })}
      {loading ? (
        <div className={styles.loading}>
          <Spinner size="tiny" />
        </div>
      ) : null}
    </div>
  );
}
