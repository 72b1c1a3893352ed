import { useQuery } from '../../../api/query';
import { useRealtimeEvent } from '../../../api/socket';
import { CONNECTIONS_KEY, connectionsApi, type Connection } from '../api/connections';

export interface WhatsappEvent {
  action: 'create' | 'update' | 'delete' | string;
  whatsapp?: Connection;
  whatsappId?: number;
}

export interface SessionEvent {
  action: string;
  session?: Partial<Connection> & { id: number };
}

/** company-{id}-whatsapp: replace, add or remove a connection. */
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

/** company-{id}-whatsappSession: status, qrcode, retries, number and update time. */
export const applySessionEvent = (list: Connection[] | undefined, event: SessionEvent): Connection[] | undefined => {
  const session = event.session;
  if (!list || !session) return list;
  return list.map((c) => (c.id === session.id ? { ...c, ...session } : c));
};

/** The company's connections, kept live by the realtime events. */
export function useConnections() {
  const query = useQuery<Connection[]>(CONNECTIONS_KEY, connectionsApi.list);
  const { setData } = query;
  useRealtimeEvent<WhatsappEvent>('whatsapp', (event) => setData((old) => applyWhatsappEvent(old, event)));
  useRealtimeEvent<SessionEvent>('whatsappSession', (event) => setData((old) => applySessionEvent(old, event)));
  return query;
}
