import { isSameDay } from 'date-fns';
import { toDate } from '../../../i18n/format';
import type { Message } from '../api/types';

export type MessageRow =
  | { kind: 'date'; key: string; date: string }
  | { kind: 'ticket'; key: string; ticketId: number; date: string }
  | { kind: 'message'; key: string; message: Message };

/** Messages with date separators and a separator where another ticket's messages begin. */
export const buildRows = (messages: Message[]): MessageRow[] => {
  const rows: MessageRow[] = [];
  messages.forEach((message, i) => {
    const previous = messages[i - 1];
    if (previous && previous.ticketId !== message.ticketId) {
      rows.push({ kind: 'ticket', key: `t-${message.ticketId}-${message.id}`, ticketId: message.ticketId, date: message.createdAt });
    }
    if (!previous || !isSameDay(toDate(previous.createdAt), toDate(message.createdAt))) {
      rows.push({ kind: 'date', key: `d-${message.id}`, date: message.createdAt });
    }
    rows.push({ kind: 'message', key: `m-${message.id}`, message });
  });
  return rows;
};

/** Location bodies: image | link | optional description. */
export const parseLocation = (body: string): { image: string; link: string; description: string } => {
  const [image = '', link = '', ...rest] = body.split('|');
  return { image, link, description: rest.join('|') };
};

/** A vCard's name and numbers. */
export const parseVcard = (body: string): { name: string; numbers: string[] } => {
  const name = /(?:^|\n)FN[^:]*:(.*)/.exec(body)?.[1]?.trim() ?? '';
  const numbers = [...body.matchAll(/(?:^|\n)(?:item\d+\.)?TEL[^:]*:(.*)/g)].map((m) => m[1].trim());
  return { name, numbers };
};
