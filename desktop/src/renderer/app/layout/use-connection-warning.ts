import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { useQuery } from '../../api/query';
import { useRealtimeEvent } from '../../api/socket';
import type { ConnectionStatusInfo } from '../../api/types';
import { toast } from '../../components/toasts';
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

/** The server's notice to the admins that a linked number has been down too long (connections.down-watch). */
export interface DownNotice {
  action: 'down';
  whatsappId: number;
  name: string;
  number?: string | null;
  minutes: number;
}

/** A down notice stays up long enough to be read by someone who was looking elsewhere (hover keeps it). */
export const DOWN_NOTICE_MS = 30_000;

export { applySessionEvent, applyWhatsappEvent };

/** Whether the connections entry shows its '!' badge (evaluated 2 s after the last change). */
export function useConnectionWarning(enabled: boolean): boolean {
  const { data, setData } = useQuery<Connection[]>(
    CONNECTIONS_KEY,
    async () => (await api.get<Connection[]>('/whatsapp/', { params: { session: 0 } })).data,
    { enabled, silent: true },
  );
  useRealtimeEvent<WhatsappEvent>('whatsapp', (event) => setData((old) => applyWhatsappEvent(old, event)));
  useRealtimeEvent<SessionEvent>('whatsappSession', (event) => {
    if (event.action !== 'down') setData((old) => applySessionEvent(old, event));
  });

  const [warning, setWarning] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setWarning(enabled && needsAttention(data)), CONNECTION_BADGE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [data, enabled]);
  return warning;
}

/**
 * Tells an admin which number has been down too long (the badge alone does not say which, nor for how
 * long). Mounted once, by the main layout: the menu's hook runs in both the drawer and the rail.
 */
export function useConnectionDownNotice(enabled: boolean): void {
  const { t } = useTranslation();
  useRealtimeEvent<DownNotice | { action: string }>('whatsappSession', (event) => {
    if (!enabled || event.action !== 'down') return;
    const notice = event as DownNotice;
    toast.warning(t('menu.connectionDown', { name: notice.name, number: notice.number || '—', minutes: notice.minutes }), {
      title: t('menu.connectionDownTitle'),
      timeout: DOWN_NOTICE_MS,
    });
  });
}
