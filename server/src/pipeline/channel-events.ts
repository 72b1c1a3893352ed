import type { ConnectionRef } from '../channels/manager.js';
import type { ChannelEvents, ChannelStatus } from '../channels/types.js';
import { forCompany } from '../db/tenant.js';
import { Company } from '../modules/companies/company.entity.js';
import { presentSession } from '../modules/connections/index.js';
import { Whatsapp } from '../modules/connections/whatsapp.entity.js';
import { digitsOnly, upsertChannelContact } from '../modules/contacts/index.js';
import { Contact } from '../modules/contacts/contact.entity.js';
import { Message } from '../modules/messages/message.entity.js';
import { markEchoed } from '../modules/outbox/index.js';
import { acceptInbound, type PipelineDeps } from './inbound.js';
import { completeMedia, resumePendingMedia } from './media.js';
import { applyMessageUpdate, completePlaceholder } from './message-updates.js';

/**
 * The channel adapter, where the inbound path starts: what a connection's channel session reports, turned into database state and domain events:
 * QR codes and statuses on the connection row (and `whatsappSession` events), messages into the pipeline.
 */
export const sessionEvents = (deps: PipelineDeps, ref: ConnectionRef): ChannelEvents => {
  const key = { id: ref.id, companyId: ref.companyId };
  const em = () => forCompany(deps.systemEm(), ref.companyId);
  const log = deps.logger.child({ whatsappId: ref.id });

  const saveStatus = async (change: (w: Whatsapp) => void) => {
    const scoped = em();
    const connection = await scoped.findOne(Whatsapp, ref.id);
    if (!connection) return;
    change(connection);
    await scoped.flush();
    deps.events.emit('connection.session', { companyId: ref.companyId, session: presentSession(connection) });
  };

  return {
    qr: (code) =>
      saveStatus((w) => {
        w.status = 'qrcode';
        w.qrcode = code;
        // The real count (spec 03 note): QR codes shown since the phone was last connected, or since an
        // admin (re)started the session.
        w.retries += 1;
      }),
    status: async (status: ChannelStatus, info) => {
      await saveStatus((w) => {
        w.status = status;
        if (status !== 'qrcode') w.qrcode = '';
        // The close reason stays on the row until the phone is connected again.
        if (info?.reason) w.disconnectReason = info.reason.slice(0, 200);
        if (status === 'CONNECTED') {
          w.disconnectReason = '';
          w.retries = 0;
          if (info?.number) w.number = info.number;
        }
        // Logged out: no phone is linked any more. Other stops (replaced, halted) keep the linked number.
        if (status === 'DISCONNECTED' && info?.unlinked) w.number = '';
        // A linked number down since when: the admins hear if it stays down (connections' down watch).
        if (status === 'CONNECTED' || !w.number) {
          w.downSince = null;
          w.downNotified = false;
        } else w.downSince ??= new Date();
      });
      // Media a crash or a stop left pending is fetched again now (in the background: status reports go on).
      if (status === 'CONNECTED') void resumePendingMedia(deps, key).catch((err: unknown) => log.warn({ err }, 'resuming pending media failed'));
    },
    message: async (message) => {
      // The echo of a message the outbox sent: its conversation copy exists; the echo proves it left.
      if (message.fromMe && (await markEchoed(em(), ref.id, message.id))) return;
      const outcome = await acceptInbound(deps, key, message);
      // Stored already: perhaps as a placeholder (it could not be read then), which its content now fills in.
      if (outcome === 'duplicate' && (await completePlaceholder(deps, key, message))) log.debug('placeholder completed');
      else log.debug({ outcome }, 'inbound message');
    },
    messageUpdate: (update) => applyMessageUpdate(deps, key, update),
    mediaDownloaded: (download) => completeMedia(deps, key, download),
    sentMessage: async (id) => {
      const message = await em().findOne(Message, { whatsappId: ref.id, wid: id, fromMe: true }, { populate: ['raw'] });
      return message?.raw ?? null;
    },
    contactUpdate: async (peer) => {
      // Only contacts we already have are refreshed: the phone's address book is not imported.
      const number = digitsOnly(peer.number);
      const lid = digitsOnly(peer.lid);
      if (!number && !lid) return;
      const scoped = em();
      if (number && lid) {
        // A phone number ↔ LID pair: saved on the contact we know by either, and two contacts (one by
        // each) become one, so the next message by either address finds the same conversation.
        const known = await scoped.count(Contact, { $or: [{ number }, { lid }], isGroup: false });
        if (known === 0) return;
        await scoped.transactional((tx) => upsertChannelContact(tx, { ...peer, number, lid, isGroup: false }));
        return;
      }
      const contact = await scoped.findOne(Contact, number ? { number } : { lid });
      if (!contact) return;
      if (peer.profilePicUrl !== undefined) contact.profilePicUrl = peer.profilePicUrl;
      if (peer.name && (contact.name === contact.number || contact.name === contact.lid)) contact.name = peer.name;
      await scoped.flush();
    },
    call: async (call) => {
      if (call.status !== 'timeout' && call.status !== 'terminate' && call.status !== 'reject') return;
      // A call the team could not take is recorded in the conversation as a call-log line, with the
      // time as the company reads its clock (not the server's).
      const at = call.at;
      const company = await em().findOne(Company, ref.companyId, { fields: ['timezone'] });
      const time = new Intl.DateTimeFormat('en-GB', {
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
        timeZone: company?.timezone ?? 'UTC',
      }).format(at);
      await acceptInbound(deps, key, {
        id: `call-${call.from.number ?? call.from.lid}-${at.getTime()}`,
        fromMe: false,
        chat: call.from,
        body: time,
        mediaType: 'call_log',
        timestamp: at,
      });
    },
  };
};
