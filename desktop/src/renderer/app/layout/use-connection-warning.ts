import { useEffect, useState } from 'react';
import { api } from '../../api/client';
import { useQuery } from '../../api/query';
import { useRealtimeEvent } from '../../api/socket';
import type { ConnectionStatusInfo } from '../../api/types';
import {
  applySessionEvent,
  applyWhatsappEvent,
  type SessionEvent as ConnectionSessionEvent,
  type WhatsappEvent as ConnectionEvent,
} from '../../api/connection-events';

/** Statuses that need someone's attention (spec 01 section 2). */
export const ATTENTION_STATUSES: readonly string[] = ['qrcode', 'PAIRING', 'DISCONNECTED', 'TIMEOUT', 'OPENING'];

/** The badge waits this long after a change, so a connection passing through OPENING does not flash it. */
export const CONNECTION_BADGE_DELAY_MS = 2000;

export const needsAttention = (connections: readonly { status: string }[] | undefined): boolean =>
  (connections ?? []).some((c) => ATTENTION_STATUSES.includes(c.status));

/** The query key of the company's connections (GET /whatsapp/?session=0); the connections feature shares it. */
export const CONNECTIONS_KEY = ['connections'] as const;

type Connection = ConnectionStatusInfo & Record<string, unknown>;

type WhatsappEvent = ConnectionEvent<Connection>;
type SessionEvent = ConnectionSessionEvent<Connection>;

export { applySessionEvent, applyWhatsappEvent };

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
