import type { Ticket, TicketEvent, TicketStatus } from '../api/types';

/** What a ticket list shows: its status (none for search), the selected queues, show-all and whose it is. */
export interface ListScope {
  status?: TicketStatus;
  /** Search results are not fed by live additions, only patched. */
  search?: boolean;
  queueIds: number[];
  showAll: boolean;
  userId: number;
}

export interface TicketListData {
  items: Ticket[];
  hasMore: boolean;
  pageNumber: number;
  count?: number;
}

/** Whether a ticket belongs in a list with this scope (spec 01 section 4). */
export const belongsToList = (ticket: Ticket, scope: ListScope): boolean => {
  if (scope.status && ticket.status !== scope.status) return false;
  // A ticket leaves a list when its queue is not among the selected queues.
  // An empty selection filters nothing.
  if (ticket.queueId && scope.queueIds.length > 0 && !scope.queueIds.includes(ticket.queueId)) return false;
  // The open list shows one's own tickets unless 'show all' is on.
  if (scope.status === 'open' && !scope.showAll && ticket.userId && ticket.userId !== scope.userId) return false;
  return true;
};

/** Whether the message time `a` is later than `b` (ISO strings; a missing time is the oldest). */
const isNewer = (a: string | null | undefined, b: string | null | undefined): boolean => !!a && (!b || Date.parse(a) > Date.parse(b));

const lastMessageOf = (t: Ticket) => ({ lastMessage: t.lastMessage, lastMessageAt: t.lastMessageAt, lastMessageDeleted: t.lastMessageDeleted });

/** Applies a company-{id}-ticket event to a cached list. */
export const applyTicketEvent = (
  data: TicketListData | undefined,
  event: TicketEvent,
  scope: ListScope,
): TicketListData | undefined => {
  if (!data) return data;
  const count = (delta: number) => (data.count === undefined ? undefined : Math.max(0, data.count + delta));
  if (event.action === 'updateUnread') {
    if (!data.items.some((t) => t.id === event.ticketId)) return data;
    return { ...data, items: data.items.map((t) => (t.id === event.ticketId ? { ...t, unreadMessages: 0 } : t)) };
  }
  if (event.action === 'delete') {
    if (!data.items.some((t) => t.id === event.ticketId)) return data;
    return { ...data, items: data.items.filter((t) => t.id !== event.ticketId), count: count(-1) };
  }
  const { ticket } = event;
  const present = data.items.some((t) => t.id === ticket.id);
  if (!belongsToList(ticket, scope)) {
    return present ? { ...data, items: data.items.filter((t) => t.id !== ticket.id), count: count(-1) } : data;
  }
  if (scope.search) {
    return present ? { ...data, items: data.items.map((t) => (t.id === ticket.id ? ticket : t)) } : data;
  }
  // Newest activity first: the changed ticket goes to the top, with the preview and time of its newest
  // message (a view that left the server before a newer message's, arriving late, does not roll them back).
  const cached = data.items.find((t) => t.id === ticket.id);
  const shown = cached && isNewer(cached.lastMessageAt, ticket.lastMessageAt) ? { ...ticket, ...lastMessageOf(cached) } : ticket;
  return {
    ...data,
    items: [shown, ...data.items.filter((t) => t.id !== ticket.id)],
    count: present ? data.count : count(1),
  };
};

/**
 * Whether the user may act on the ticket (reply, return, resolve, transfer): an open ticket is its agent's;
 * colleagues read it, admins may act (the server's rule, canActOnTicket).
 */
export const mayAct = (ticket: Pick<Ticket, 'status' | 'userId'>, userId: number | undefined, isAdmin: boolean): boolean =>
  isAdmin || ticket.status !== 'open' || ticket.userId === null || ticket.userId === userId;

/** Whether the user may open the ticket (non-admins: only their queues). */
export const mayOpen = (ticket: Ticket, isAdmin: boolean, userQueueIds: number[]): boolean =>
  isAdmin || !ticket.queueId || userQueueIds.includes(ticket.queueId) || ticket.userId !== null;
