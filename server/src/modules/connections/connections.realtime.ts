import { rooms } from '@atrium/shared';
import type { EventBus } from '../../events/bus.js';
import type { Realtime } from '../../realtime/server.js';

/** What clients hear (spec 01 section 7, spec 03 section 14): connections and their sessions (QR codes only to admins). */
export const registerConnectionsRealtime = (events: EventBus, realtime: Realtime): void => {
  // A connection's QR code only to admins: scanning it links a phone to the company's connection.
  const withoutQr = <T extends { qrcode: string }>(view: T): T => ({ ...view, qrcode: '' });
  const toAdminsWithQr = (companyId: number, resource: 'whatsapp' | 'whatsappSession', payload: (qr: boolean) => object) => {
    const admins = rooms.admins(companyId);
    realtime.toRooms([admins], companyId, resource, payload(true));
    realtime.toRooms([rooms.company(companyId)], companyId, resource, payload(false), [admins]);
  };
  events.on('connection.changed', ({ companyId, action, whatsapp }) =>
    toAdminsWithQr(companyId, 'whatsapp', (qr) => ({ action, whatsapp: qr ? whatsapp : withoutQr(whatsapp) })),
  );
  events.on('connection.deleted', ({ companyId, whatsappId }) =>
    realtime.toCompany(companyId, 'whatsapp', { action: 'delete', whatsappId }),
  );
  events.on('connection.session', ({ companyId, session }) =>
    toAdminsWithQr(companyId, 'whatsappSession', (qr) => ({ action: 'update', session: qr ? session : withoutQr(session) })),
  );
  // A number down for too long: the admins are the ones who can reconnect it.
  events.on('connection.down', ({ companyId, whatsappId, name, number, since, minutes }) =>
    realtime.toRooms([rooms.admins(companyId)], companyId, 'whatsappSession', { action: 'down', whatsappId, name, number, since, minutes }),
  );
};
