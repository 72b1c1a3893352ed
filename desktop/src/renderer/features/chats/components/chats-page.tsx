import { useEffect, useState } from 'react';
import { Button, makeStyles, Spinner, Tab, TabList, Text, tokens } from '@fluentui/react-components';
import { Add20Regular, ChatMultiple24Regular } from '@fluentui/react-icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate, useParams } from 'react-router';
import { toastError } from '../../../api/errors';
import { DeleteDialog } from '../../../components/list-kit';
import { EmptyState } from '../../../components/empty-state';
import { PageContainer, PageContent } from '../../../components/page-container';
import { PageHeader } from '../../../components/page-header';
import { NARROW_TABLE_MAX } from '../../../components/responsive';
import { toast } from '../../../components/toasts';
import { useWindowWidth } from '../../../hooks/use-window-width';
import { useCurrentUser } from '../../../stores/auth-store';
import { CHAT_LIST_KEY, CHAT_ONE_KEY, chatsApi, type Chat } from '../api/chats';
import { useChatCache, useChatList, useChatsEnabled } from '../hooks/use-chats';
import { ChatConversation } from './chat-conversation';
import { ChatDialog } from './chat-dialog';
import { ChatList } from './chat-list';

const useStyles = makeStyles({
  content: { display: 'flex', padding: 0, overflow: 'hidden', minHeight: 0 },
  listPane: {
    width: '320px',
    flexShrink: 0,
    display: 'flex',
    flexDirection: 'column',
    minHeight: 0,
    borderRight: `1px solid ${tokens.colorNeutralStroke2}`,
  },
  fullPane: { flex: 1, display: 'flex', flexDirection: 'column', minHeight: 0, minWidth: 0 },
  placeholder: { flex: 1, display: 'flex', alignItems: 'center', justifyContent: 'center' },
  tabs: { flexShrink: 0 },
});

type Editing = { chat?: Chat } | null;

/** /chats/:id? — the internal chat: the user's chats beside the open one; two tabs (chats, messages) under 600 px. */
export default function ChatsPage() {
  const styles = useStyles();
  const { t } = useTranslation('chats');
  const user = useCurrentUser();
  const enabled = useChatsEnabled();
  const { id: routeId } = useParams();
  const navigate = useNavigate();
  const narrow = useWindowWidth() <= NARROW_TABLE_MAX;
  const [tab, setTab] = useState<'chats' | 'messages'>(routeId ? 'messages' : 'chats');
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<Chat | null>(null);
  const cache = useChatCache();
  const list = useChatList();

  const listed = routeId ? list.chats.find((c) => c.uuid === routeId || String(c.id) === routeId) : undefined;
  // A chat not on the loaded pages (a link, a notification) is read by itself.
  const single = useQuery({
    queryKey: [...CHAT_ONE_KEY, routeId],
    queryFn: () => chatsApi.get(routeId as string),
    enabled: enabled === true && !!routeId && !listed && list.isSuccess,
    // Its failure is toasted below, with the way back to the list.
    meta: { silent: true },
  });
  const selected = listed ?? single.data;

  useEffect(() => {
    if (single.isError) {
      toastError(single.error);
      void navigate('/chats', { replace: true });
    }
  }, [single.isError, single.error, navigate]);

  useEffect(() => {
    if (enabled === false) toast.info(t('noPlan'));
  }, [enabled, t]);
  if (enabled === false) return <Navigate to="/" replace />;

  const open = (chat: Chat) => {
    setTab('messages');
    void navigate(`/chats/${chat.uuid}`);
  };

  const conversation = selected ? (
    <ChatConversation
      key={selected.id}
      chat={selected}
      userId={user?.id}
      onBack={narrow ? () => setTab('chats') : undefined}
      onEdit={(chat) => setEditing({ chat })}
      onDelete={setDeleting}
    />
  ) : (
    <div className={styles.placeholder}>
      {routeId && (single.isLoading || list.isLoading) ? (
        <Spinner />
      ) : (
        <EmptyState icon={<ChatMultiple24Regular />} title={t('conversation.pick')} />
      )}
    </div>
  );
  const chatList = (
    <ChatList
      chats={list.chats}
      userId={user?.id}
      selectedId={selected?.id}
      loading={list.isLoading || list.isFetchingNextPage}
      hasMore={!!list.hasNextPage}
      loadMore={() => void list.fetchNextPage()}
      onSelect={open}
      onEdit={(chat) => setEditing({ chat })}
      onDelete={setDeleting}
    />
  );

  return (
    <PageContainer>
      <PageHeader
        title={t('title')}
        actions={
          <Button appearance="primary" icon={<Add20Regular />} onClick={() => setEditing({})} data-testid="chat-new">
            {t('list.new')}
          </Button>
        }
      />
      {narrow ? (
        <TabList className={styles.tabs} selectedValue={tab} onTabSelect={(_, d) => setTab(d.value as 'chats' | 'messages')} data-testid="chat-tabs">
          <Tab value="chats" data-testid="chat-tab-chats">
            {t('tabs.chats')}
          </Tab>
          <Tab value="messages" data-testid="chat-tab-messages">
            {t('tabs.messages')}
          </Tab>
        </TabList>
      ) : null}
      <PageContent className={styles.content}>
        {narrow ? (
          <div className={styles.fullPane}>{tab === 'chats' ? chatList : conversation}</div>
        ) : (
          <>
            <div className={styles.listPane}>{chatList}</div>
            <div className={styles.fullPane}>{conversation}</div>
          </>
        )}
      </PageContent>
      {editing ? (
        <ChatDialog
          chat={editing.chat}
          userId={user?.id}
          onClose={() => setEditing(null)}
          onSaved={(chat) => {
            cache.upsert(chat);
            if (!editing.chat) open(chat);
          }}
        />
      ) : null}
      <DeleteDialog
        item={deleting}
        onClose={() => setDeleting(null)}
        title={() => t('confirmDelete.title')}
        body={<Text>{t('confirmDelete.body', { title: deleting?.title ?? '' })}</Text>}
        remove={async (chat) => {
          await chatsApi.remove(chat.id);
          cache.remove(chat.id);
          if (selected?.id === chat.id) {
            setTab('chats');
            void navigate('/chats');
          }
        }}
        listKey={CHAT_LIST_KEY}
        deletedMessage={t('toasts.deleted')}
      />
    </PageContainer>
  );
}
