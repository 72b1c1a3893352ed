import { useEffect, useState } from 'react';
import { api } from '../../api/client';
import { useQuery } from '../../api/query';
import { useRealtimeEvent } from '../../api/socket';
import type { ConnectionStatusInfo } from '../../api/types';

/** Statuses that need someone's attention (spec 01 section 2). */
export const ATTENTION_STATUSES: readonly string[] = ['qrcode', 'PAIRING', 'DISCONNECTED', 'TIMEOUT', 'OPENING'];

/** The badge waits this long after a change, so a connection passing through OPENING does not flash it. */
export const CONNECTION_BADGE_DELAY_MS = 2000;

export const needsAttention = (connections: readonly { status: string }[] | undefined): boolean =>
  (connections ?? []).some((c) => ATTENTION_STATUSES.includes(c.status));

/** The query key of the company's connections (GET /whatsapp/?session=0); the connections feature shares it. */
export const CONNECTIONS_KEY = ['connections'] as const;

type Connection = ConnectionStatusInfo & Record<string, unknown>;

interface WhatsappEvent {
  action: string;
  whatsapp?: Connection;
  whatsappId?: number;
}
interface SessionEvent {
  action: string;
  session?: Partial<Connection> & { id: number };
}

/** Applies a company-{id}-whatsapp event to the list: replace, add or remove. */
export const applyWhatsappEvent = (list: Connection[] | undefined, event: WhatsappEvent): Connection[] | undefined => {
  if (!list) return list;
  if (event.action === 'delete') {
    const id = event.whatsappId ?? event.whatsapp?.id;
    return list.filter((c) => c.id !== id);
  }
  const changed = event.whatsapp;
  if (!changed) return list;
  return list.some((c) => c.id === changed.id)
    ? list.map((c) => (c.id === changed.id ? { ...c, ...changed } : c))
    : [...list, changed];
};

/** Applies a company-{id}-whatsappSession event: status, qrcode, retries and update time. */
export const applySessionEvent = (list: Connection[] | undefined, event: SessionEvent): Connection[] | undefined => {
  const session = event.session;
  if (!list || !session) return list;
  return list.map((c) => (c.id === session.id ? { ...c, ...session } : c));
};

/** Whether the connections entry shows its '!' badge (evaluated 2 s after the last change). */
export function useConnectionWarning(enabled: boolean): boolean {
  const { data, setData } = useQuery<Connection[]>(
    CONNECTIONS_KEY,
    async () => (await api.get<Connection[]>('/whatsapp/', { params: { session: 0 } })).data,
    { enabled, silent: true },
  );
  useRealtimeEvent<WhatsappEvent>('whatsapp', (event) => setData((old) => applyWhatsappEvent(old, event)));
  useRealtimeEvent<SessionEvent>('whatsappSession', (event) => setData((old) => applySessionEvent(old, event)));

  const [warning, setWarning] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setWarning(enabled && needsAttention(data)), CONNECTION_BADGE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [data, enabled]);
  return warning;
}
