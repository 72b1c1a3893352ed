import { isSameDay } from 'date-fns';
import { toDate } from '../../../i18n/format';
import type { Message, TicketLog } from '../api/types';

export type MessageRow =
  | { kind: 'date'; key: string; date: string }
  | {
      kind: 'ticket';
      key: string;
      /** The ticket whose messages end here, and when its last message was (the message view has no closing time). */
      closedTicketId: number;
      lastMessageAt: string;
      /** The ticket whose messages begin here, and when its first message was. */
      ticketId: number;
      date: string;
    }
  | { kind: 'message'; key: string; message: Message; reactions?: Message[] }
  /** A line of the ticket's activity trail (transferred, accepted, closed...), among the messages by time. */
  | { kind: 'activity'; key: string; log: TicketLog };

/** A reaction to a message that is on screen (it is shown on that message). */
const reactsToLoaded = (m: Message, loaded: Set<number>) =>
  m.mediaType === 'reactionMessage' && !m.isDeleted && !!m.quotedMsgId && loaded.has(m.quotedMsgId);

/**
 * Reactions to the messages on screen, by the id of the message reacted to: the latest of each person (a
 * new reaction replaces one's earlier one, as on the phone). A reaction to a message not loaded is not here.
 */
const reactionsByTarget = (messages: Message[], loaded: Set<number>): Map<number, Message[]> => {
  const latest = new Map<number, Map<string, Message>>();
  for (const m of messages) {
    if (!reactsToLoaded(m, loaded)) continue;
    const target = m.quotedMsgId as number;
    const byPerson = latest.get(target) ?? new Map<string, Message>();
    byPerson.set(m.fromMe ? 'me' : `contact-${m.contact?.id ?? ''}`, m);
    latest.set(target, byPerson);
  }
  return new Map([...latest].map(([id, byPerson]) => [id, [...byPerson.values()]]));
};

/**
 * Messages with date separators and a separator where another ticket's messages begin. A reaction to a
 * message on screen is shown on that message, not as a row of its own. The activity trail's lines go
 * between the messages by time; while older messages are still to load, lines older than the first
 * loaded message wait for them (they would otherwise all gather at the top).
 */
export const buildRows = (all: Message[], logs: TicketLog[] = [], hasMore = false): MessageRow[] => {
  const loaded = new Set(all.map((m) => m.id));
  const reactions = reactionsByTarget(all, loaded);
  // A reaction taken back (deleted) is not shown at all, as on the phone.
  const messages = all.filter((m) => !reactsToLoaded(m, loaded) && !(m.mediaType === 'reactionMessage' && m.isDeleted));
  const rows: MessageRow[] = [];
  // The last message that belongs to a ticket: a message sent without one (a campaign's) sits in the
  // history between tickets and neither ends nor starts one.
  let lastOfTicket: Message | undefined;
  const first = messages[0] ? Date.parse(messages[0].createdAt) : undefined;
  const lines = logs.filter((log) => !hasMore || first === undefined || Date.parse(log.createdAt) >= first);
  let nextLine = 0;
  let previousAt: string | undefined;
  const dateRow = (at: string, key: string) => {
    if (!previousAt || !isSameDay(toDate(previousAt), toDate(at))) rows.push({ kind: 'date', key: `d-${key}`, date: at });
    previousAt = at;
  };
  const linesUntil = (until: number) => {
    while (nextLine < lines.length && Date.parse(lines[nextLine].createdAt) <= until) {
      const log = lines[nextLine++];
      dateRow(log.createdAt, `l-${log.id}`);
      rows.push({ kind: 'activity', key: `l-${log.id}`, log });
    }
  };
  messages.forEach((message) => {
    linesUntil(Date.parse(message.createdAt));
    if (message.ticketId !== null && lastOfTicket && lastOfTicket.ticketId !== message.ticketId) {
      rows.push({
        kind: 'ticket',
        key: `t-${message.ticketId}-${message.id}`,
        closedTicketId: lastOfTicket.ticketId as number,
        lastMessageAt: lastOfTicket.createdAt,
        ticketId: message.ticketId,
        date: message.createdAt,
      });
    }
    if (message.ticketId !== null) lastOfTicket = message;
    dateRow(message.createdAt, String(message.id));
    rows.push({ kind: 'message', key: `m-${message.id}`, message, reactions: reactions.get(message.id) });
  });
  linesUntil(Infinity);
  return rows;
};

/** Location bodies: image | link | optional description. */
export const parseLocation = (body: string): { image: string; link: string; description: string } => {
  const [image = '', link = '', ...rest] = body.split('|');
  return { image, link, description: rest.join('|') };
};

export interface VcardView {
  name: string;
  numbers: string[];
}

/** One vCard's name and numbers. */
export const parseVcard = (body: string): VcardView => {
  const name = /(?:^|\n)FN[^:]*:(.*)/.exec(body)?.[1]?.trim() ?? '';
  const numbers = [...body.matchAll(/(?:^|\n)(?:item\d+\.)?TEL[^:]*:(.*)/g)].map((m) => m[1].trim());
  return { name, numbers };
};

/** Every card of a body (a contacts-array message carries several vCards one after another). */
export const parseVcards = (body: string): VcardView[] => {
  const cards = body
    .split(/(?=BEGIN:VCARD)/)
    .map((part) => part.trim())
    .filter((part) => part !== '');
  return (cards.length > 0 ? cards : [body]).map((card) => parseVcard(card.replace(/\r\n/g, '\n')));
};
