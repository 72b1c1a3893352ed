import { Suspense, useState, type ReactElement } from 'react';
import { Avatar, Button, makeStyles, mergeClasses, Spinner, Text, tokens, Tooltip } from '@fluentui/react-components';
import {
  ArrowLeft20Regular,
  ArrowSwap20Regular,
  ArrowUndo20Regular,
  CalendarClock20Regular,
  Checkmark20Regular,
  CheckmarkCircle20Regular,
  Delete20Regular,
  LockClosed20Regular,
  Flowchart20Regular,
} from '@fluentui/react-icons';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { can } from '@atrium/shared';
import { errorStatusOf, toastError } from '../../../api/errors';
import { queryClient, useQuery } from '../../../api/query';
import { useRealtimeEvent } from '../../../api/socket';
import { ConfirmationDialog } from '../../../components/confirmation-dialog';
import { useFeatureSlot } from '../../../components/feature-slots';
import { toast } from '../../../components/toasts';
import { useWindowWidth } from '../../../hooks/use-window-width';
import { useCurrentUser, useIsAdmin } from '../../../stores/auth-store';
import { deleteMessage, deleteTicket, fetchTags, fetchTicketByUuid, syncTags } from '../api/tickets';
import type { ContactRef, Message, TagRef, Ticket, TicketEvent } from '../api/types';
import { useMessages, useReadWhileOpen, upsertMessage } from '../hooks/use-messages';
import { useTicketLog } from '../hooks/use-ticket-log';
import { useTicketActions } from '../hooks/use-ticket-actions';
import { mayAct } from '../lib/ticket-rules';
import { ContactDrawer } from './contact-drawer';
import { MessageInput } from './message-input';
import { MessageList } from './message-list';
import { TagPicker } from './tag-picker';
import { TransferDialog } from './transfer-dialog';
import { filledWith } from '../../../lib/color';

const NAME_MAX_NARROW = 10;
const NARROW_WIDTH = 600;

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', height: '100%', minHeight: 0, backgroundColor: tokens.colorNeutralBackground1 },
  header: {
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalS,
    padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalM}`,
    borderBottom: `1px solid ${tokens.colorNeutralStroke2}`,
    flexWrap: 'wrap',
  },
  who: {
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalS,
    flex: 1,
    minWidth: 0,
    cursor: 'pointer',
    background: 'none',
    border: 'none',
    padding: 0,
    textAlign: 'left',
    color: 'inherit',
    font: 'inherit',
  },
  names: { display: 'flex', flexDirection: 'column', minWidth: 0 },
  ellipsis: { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' },
  muted: { color: tokens.colorNeutralForeground3 },
  actions: { display: 'flex', alignItems: 'center', gap: '4px', flexWrap: 'wrap' },
  tags: {
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalS,
    // At 400 px the chips go to the next line instead of off the edge, each on one line.
    flexWrap: 'wrap',
    rowGap: '4px',
    padding: `4px ${tokens.spacingHorizontalM}`,
    borderBottom: `1px solid ${tokens.colorNeutralStroke2}`,
  },
  tag: {
    borderRadius: '10px',
    padding: '0 8px',
    fontSize: '12px',
    maxWidth: '100%',
    overflow: 'hidden',
    textOverflow: 'ellipsis',
    whiteSpace: 'nowrap',
  },
  center: { flex: 1, display: 'flex', alignItems: 'center', justifyContent: 'center' },
  handledByOther: {
    display: 'flex',
    alignItems: 'center',
    gap: tokens.spacingHorizontalS,
    padding: `${tokens.spacingVerticalM} ${tokens.spacingHorizontalM}`,
    borderTop: `1px solid ${tokens.colorNeutralStroke2}`,
    backgroundColor: tokens.colorNeutralBackground3,
    color: tokens.colorNeutralForeground2,
  },
});

export const truncateName = (name: string, narrow: boolean): string =>
  narrow && name.length > NAME_MAX_NARROW ? `${name.slice(0, NAME_MAX_NARROW)}...` : name;

/** The conversation of one ticket (spec 01 section 2, Conversation view). */
export function Conversation({ uuid, onBack }: { uuid: string; onBack?: () => void }) {
  const styles = useStyles();
  const { t } = useTranslation('tickets');
  const navigate = useNavigate();
  const user = useCurrentUser();
  const isAdmin = useIsAdmin();
  const width = useWindowWidth();
  const actions = useTicketActions();
  const [replyTo, setReplyTo] = useState<Message | null>(null);
  const [drawer, setDrawer] = useState(false);
  const [transfer, setTransfer] = useState(false);
  const [scheduling, setScheduling] = useState(false);
  const ScheduleDialog = useFeatureSlot('scheduleDialog');
  const FlowLogDialog = useFeatureSlot('flowLogDialog');
  const [flowLog, setFlowLog] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [deleting, setDeleting] = useState<Message | null>(null);

  const ticketQuery = useQuery<Ticket>(
    ['ticket', uuid],
    async () => {
      try {
        return await fetchTicketByUuid(uuid);
      } catch (err) {
        // A ticket outside the user's queues (403) or gone: back to the list.
        if (errorStatusOf(err) === 403) toast.error(t('notices.unauthorized'));
        else toastError(err);
        void navigate('/tickets', { replace: true });
        throw err;
      }
    },
    { silent: true },
  );
  const ticket = ticketQuery.data;
  const messages = useMessages(ticket?.id);
  const trail = useTicketLog(ticket);
  useReadWhileOpen(ticket?.id, ticket?.unreadMessages ?? 0, messages.refreshNewest);
  const tags = useQuery(['tags', 'list'], fetchTags, { enabled: !!ticket, staleTime: 60_000, silent: true });

  useRealtimeEvent<TicketEvent>('ticket', (event) => {
    if (!ticket) return;
    if (event.action === 'update' && event.ticket.id === ticket.id) ticketQuery.setData(event.ticket);
    if (event.action === 'updateUnread' && event.ticketId === ticket.id) ticketQuery.setData({ ...ticket, unreadMessages: 0 });
    if (event.action === 'delete' && event.ticketId === ticket.id) {
      toast.info(t('notices.deleted'));
      void navigate('/tickets');
    }
  });

  // The contact edited here (drawer) or elsewhere: the header shows the new name and picture.
  useRealtimeEvent<{ action: string; contact?: ContactRef }>('contact', (event) => {
    const changed = event.contact;
    if (!ticket || event.action !== 'update' || !changed || changed.id !== ticket.contactId) return;
    ticketQuery.setData({ ...ticket, contact: { ...ticket.contact, ...changed } });
  });

  if (!ticket) {
    return (
      <div className={styles.root} data-testid="conversation">
        <div className={styles.center}>{ticketQuery.status === 'error' ? null : <Spinner />}</div>
      </div>
    );
  }

  const name = ticket.contact?.name ?? '';
  // Another agent's open conversation: readable, not ours to answer or move (the server refuses it too).
  const actor = mayAct(ticket, user?.id, isAdmin);
  const narrow = width < NARROW_WIDTH;
  const iconOnly = width < 1100;
  const action = (testId: string, label: string, icon: ReactElement, onClick: () => void, primary = false) => (
    <Tooltip content={label} relationship="label">
      <Button
        size="small"
        data-testid={testId}
        appearance={primary ? 'primary' : 'secondary'}
        icon={icon}
        aria-label={label}
        onClick={onClick}
      >
        {iconOnly ? null : label}
      </Button>
    </Tooltip>
  );

  const saveTags = async (chosen: (TagRef | { name: string })[]) => {
    try {
      const updated = await syncTags(ticket.id, chosen);
      const created = chosen.some((tag) => !('id' in tag));
      ticketQuery.setData(
        updated && typeof updated === 'object' && 'id' in updated ? updated : { ...ticket, tags: chosen.filter((tag): tag is TagRef => 'id' in tag) },
      );
      void queryClient.invalidateQueries({ queryKey: ['tickets'] });
      // A tag created by name: the tags page and every picker learn it.
      if (created) void queryClient.invalidateQueries({ queryKey: ['tags'] });
    } catch (err) {
      toastError(err);
    }
  };
  const onTags = (ids: number[]) => saveTags((tags.data ?? []).filter((tag) => ids.includes(tag.id)));
  const onCreateTag = (name: string) => saveTags([...(ticket.tags ?? []), { name }]);

  return (
    <div className={styles.root} data-testid="conversation">
      <div className={styles.header}>
        {onBack ? <Button appearance="subtle" icon={<ArrowLeft20Regular />} aria-label={t('actions.back')} onClick={onBack} /> : null}
        {/* Named by what it shows (the contact, the ticket, the agent: WCAG 2.5.3); what it does is its description. */}
        <Tooltip content={t('actions.contact')} relationship="description">
          <button type="button" className={styles.who} onClick={() => setDrawer(true)} aria-haspopup="dialog" data-testid="conversation-contact-button">
            <Avatar name={name} image={ticket.contact?.profilePicUrl ? { src: ticket.contact.profilePicUrl } : undefined} aria-hidden />
            <span className={styles.names}>
              <Text weight="semibold" className={styles.ellipsis} data-testid="conversation-contact">
                {truncateName(name, narrow)} <span className={styles.muted}>#{ticket.id}</span>
              </Text>
              {ticket.user ? (
                <Text size={200} className={mergeClasses(styles.muted, styles.ellipsis)}>
                  {t('conversation.assignedTo', { name: ticket.user.name })}
                </Text>
              ) : null}
            </span>
          </button>
        </Tooltip>
        <div className={styles.actions}>
          {ticket.status === 'pending'
            ? action('conversation-accept', t('actions.accept'), <Checkmark20Regular />, () => void actions.accept(ticket), true)
            : null}
          {ticket.status === 'closed'
            ? action('ticket-reopen', t('actions.reopen'), <ArrowUndo20Regular />, () => void actions.reopen(ticket), true)
            : null}
          {ticket.status === 'open' && actor
            ? action('ticket-return', t('actions.return'), <ArrowUndo20Regular />, () => void actions.giveBack(ticket))
            : null}
          {ticket.status !== 'closed' && actor
            ? action('ticket-resolve', t('actions.resolve'), <CheckmarkCircle20Regular />, () => void actions.close(ticket), true)
            : null}
          {ticket.status !== 'closed' && actor
            ? action('ticket-transfer', t('actions.transfer'), <ArrowSwap20Regular />, () => setTransfer(true))
            : null}
          {/* In place, pre-filled with the contact; the conversation stays (the page when no dialog is at hand). */}
          {action('ticket-schedule', t('actions.schedule'), <CalendarClock20Regular />, () =>
            ScheduleDialog ? setScheduling(true) : void navigate(`/schedules?contactId=${ticket.contactId}`),
          )}
          {isAdmin && FlowLogDialog ? action('ticket-flow-log', t('actions.flowLog'), <Flowchart20Regular />, () => setFlowLog(true)) : null}
          {can(user?.profile, 'ticket-options:deleteTicket')
            ? action('ticket-delete', t('actions.delete'), <Delete20Regular />, () => setConfirmDelete(true))
            : null}
        </div>
      </div>
      <div className={styles.tags} data-testid="conversation-tags">
        <TagPicker
          label={t('conversation.tags')}
          tags={tags.data ?? []}
          selected={(ticket.tags ?? []).map((tag) => tag.id)}
          onChange={(ids) => void onTags(ids)}
          onCreate={(name) => void onCreateTag(name)}
        />
        {(ticket.tags ?? []).map((tag) => (
          <span
            key={tag.id}
            data-testid={`conversation-tag-${tag.id}`}
            className={styles.tag}
            style={filledWith(tag.color)}
          >
            {tag.name}
          </span>
        ))}
      </div>
      <MessageList
        messages={messages.items}
        logs={trail}
        hasMore={messages.hasMore}
        loading={messages.isLoading}
        loadOlder={messages.loadOlder}
        isGroup={ticket.isGroup}
        readOnly={!actor}
        onReply={setReplyTo}
        onDelete={setDeleting}
      />
      {actor ? (
        <MessageInput
          ticketId={ticket.id}
          status={ticket.status}
          replyTo={replyTo}
          onCancelReply={() => setReplyTo(null)}
          onSent={(sent) => {
            if (sent.length > 0) messages.setData((old) => (old ? { ...old, items: sent.reduce(upsertMessage, old.items) } : old));
          }}
        />
      ) : (
        <div className={styles.handledByOther} role="status" data-testid="conversation-handled-by-other">
          <LockClosed20Regular />
          <Text>{t('conversation.handledByOther', { name: ticket.user?.name ?? '' })}</Text>
        </div>
      )}
      <ContactDrawer ticket={ticket} open={drawer} onOpenChange={setDrawer} />
      {transfer ? <TransferDialog ticket={ticket} open={transfer} onOpenChange={setTransfer} /> : null}
      {scheduling && ScheduleDialog ? (
        <Suspense fallback={null}>
          <ScheduleDialog contactId={ticket.contactId} onClose={() => setScheduling(false)} />
        </Suspense>
      ) : null}
      {flowLog && FlowLogDialog ? (
        <Suspense fallback={null}>
          <FlowLogDialog ticketId={ticket.id} onClose={() => setFlowLog(false)} />
        </Suspense>
      ) : null}
      <ConfirmationDialog
        open={confirmDelete}
        onOpenChange={setConfirmDelete}
        destructive
        title={t('deleteDialog.title', { id: ticket.id })}
        onConfirm={async () => {
          try {
            await deleteTicket(ticket.id);
            void queryClient.invalidateQueries({ queryKey: ['tickets'] });
            void navigate('/tickets');
          } catch (err) {
            toastError(err);
          }
        }}
      >
        {t('deleteDialog.text')}
      </ConfirmationDialog>
      <ConfirmationDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        destructive
        title={t('conversation.deleteMessageTitle')}
        onConfirm={async () => {
          if (!deleting) return;
          try {
            const deleted = await deleteMessage(deleting.id);
            // The update event says the same; the answer shows it without waiting for the socket.
            if (deleted && typeof deleted === 'object' && 'id' in deleted) {
              messages.setData((old) => (old ? { ...old, items: upsertMessage(old.items, deleted) } : old));
            }
          } catch (err) {
            toastError(err);
          }
        }}
      >
        {t('conversation.deleteMessageText')}
      </ConfirmationDialog>
    </div>
  );
}
