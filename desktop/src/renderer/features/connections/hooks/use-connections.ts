import { useQuery } from '../../../api/query';
import { useRealtimeEvent } from '../../../api/socket';
import {
  applySessionEvent,
  applyWhatsappEvent,
  type SessionEvent as ConnectionSessionEvent,
  type WhatsappEvent as ConnectionEvent,
} from '../../../api/connection-events';
import { CONNECTIONS_KEY, connectionsApi, type Connection } from '../api/connections';

export type WhatsappEvent = ConnectionEvent<Connection>;
export type SessionEvent = ConnectionSessionEvent<Connection>;
export { applySessionEvent, applyWhatsappEvent };

/** The company's connections, kept live by the realtime events. */
export function useConnections() {
  const query = useQuery<Connection[]>(CONNECTIONS_KEY, connectionsApi.list);
  const { setData } = query;
  useRealtimeEvent<WhatsappEvent>('whatsapp', (event) => setData((old) => applyWhatsappEvent(old, event)));
  useRealtimeEvent<SessionEvent>('whatsappSession', (event) => setData((old) => applySessionEvent(old, event)));
  return query;
}
