import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { ACCOUNT_RESTRICTED_TEXT, proto, type WAMessage } from '@whiskeysockets/baileys';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forCompany } from '../../db/tenant.js';
import { readOggOpus } from '../../media/ogg.js';
import { OutboundMessage } from '../../modules/outbox/outbound-message.entity.js';
import { startBaileysApp, waMessage as wa, type BaileysApp } from '../../../testing/baileys-app.js';
import { ticketOf } from '../../../testing/conversation.js';
import { recordedWebm } from '../../../testing/voice.js';
import { startMediaServer, type MediaServer } from '../../../testing/whatsapp-media.js';
import { connectSocket, eventually, joined, type Tenant, type TestApp } from '../../../testing/helpers.js';
import { defaultDownloadMedia } from './session.js';
import { acceptInbound } from '../../pipeline/inbound.js';
import { failStaleMedia, STALE_MEDIA_MS } from '../../pipeline/media.js';

/**
 * The Baileys provider inside the real server: Baileys' own events and proto objects go through an
 * injected socket, and what the agent sees comes back through the API, the database and the realtime.
 */
let t: TestApp;
let a: Tenant;
let whatsappId: number;
let baileys: BaileysApp;
const socket = () => baileys.socket();
let seq = 0;

/** WhatsApp's media servers (testing/whatsapp-media.ts). */
let media: MediaServer;
/** Limit on a received media in this file's server (MEDIA_DOWNLOAD_MAX_MB 0.25). */
const MAX_BYTES = 256 * 1024;

const encryptedImage = (...args: Parameters<MediaServer['image']>) => media.image(...args);

beforeAll(async () => {
  media = await startMediaServer();

  baileys = await startBaileysApp({
    tenant: 'Baileys',
    env: { MEDIA_DOWNLOAD_MAX_MB: '0.25' },
    // A media with a URL goes Baileys' real way, to the local media server; the others are made up.
    provider: { downloadMedia: async (msg, s, logger) => (msg.message?.imageMessage?.url ? defaultDownloadMedia(msg, s, logger) : Buffer.from('media-bytes')) },
  });
  ({ t, tenant: a, whatsappId } = baileys);
});
afterAll(async () => {
  await t?.stop();
  await media?.close();
});

const em = () => forCompany(t.app.orm.em.fork(), a.companyId);
const messagesOf = async (ticketId: number) => (await t.api.get(`/messages/${ticketId}`, a.admin.token)).body.messages as any[];

const upsert = (...messages: WAMessage[]) => baileys.upsert(...messages);

/** A customer who wrote, with the ticket the admin accepted. */
const customer = async () => {
  const number = `55119${String(++seq).padStart(8, '0')}`;
  upsert(wa({ remoteJid: `${number}@s.whatsapp.net`, id: `IN-${number}` }, { conversation: 'Oi' }, { pushName: `Cliente ${seq}` }));
  const ticket = await eventually(async () => (await ticketOf(t.api, a.admin.token, number)) ?? false);
  await t.api.put(`/tickets/${ticket.id}`, { status: 'open' }, a.admin.token);
  return { number, jid: `${number}@s.whatsapp.net`, ticketId: ticket.id as number };
};

describe('an error receipt for one of our messages', () => {
  it.each([
    ['a refusal', ['479'], 'ERR_WAPP_SEND_REFUSED'],
    ['an account restriction', ['463', ACCOUNT_RESTRICTED_TEXT], 'ERR_WAPP_ACCOUNT_RESTRICTED'],
  ])('(%s) fails the sent message with its reason, tells the clients, and resend sends it again', async (_case, stub, code) => {
    const { jid, ticketId } = await customer();
    const res = await t.api.post(`/messages/${ticketId}`, { body: 'Seu pedido saiu' }, a.admin.token);
    expect(res.status).toBe(200);
    const wid: string = res.body.wid;
    await eventually(async () => (await em().findOneOrFail(OutboundMessage, { wid })).status === 'sent');
    expect(socket().sent.filter((s) => s.options?.messageId === wid)).toHaveLength(1);

    const client = await connectSocket(t.app.url, a.admin.token);
    try {
      await joined(client, 'joinChatBox', String(ticketId));
      const heard: any[] = [];
      client.on(`company-${a.companyId}-appMessage`, (e) => heard.push(e));
      // Baileys' ack handler: an <ack error="..."> for our message becomes this update.
      socket().emit('messages.update', [
        { key: { remoteJid: jid, fromMe: true, id: wid }, update: { status: proto.WebMessageInfo.Status.ERROR, messageStubParameters: stub } },
      ]);
      await eventually(() => expect(heard.some((e) => e.action === 'update' && e.message.id === res.body.id && e.message.sendError === code)).toBe(true));
    } finally {
      client.close();
    }
    expect(await em().findOneOrFail(OutboundMessage, { wid })).toMatchObject({ status: 'failed', lastError: code });
    expect((await messagesOf(ticketId)).find((m) => m.id === res.body.id)).toMatchObject({ sendError: code });

    const again = await t.api.post(`/messages/${res.body.id}/resend`, {}, a.admin.token);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ wid, sendError: null });
    await eventually(async () => (await em().findOneOrFail(OutboundMessage, { wid })).status === 'sent');
    expect(socket().sent.filter((s) => s.options?.messageId === wid)).toHaveLength(2);
  });

  it('a late error receipt for a customer’s message, or an unknown id, changes nothing', async () => {
    const { jid, ticketId } = await customer();
    const state = async () => (await messagesOf(ticketId)).map((m) => ({ id: m.id, ack: m.ack, sendError: m.sendError, isDeleted: m.isDeleted }));
    const before = await state();
    socket().emit('messages.update', [
      { key: { remoteJid: jid, fromMe: false, id: `IN-${jid.split('@')[0]}` }, update: { status: proto.WebMessageInfo.Status.ERROR } },
      { key: { remoteJid: jid, fromMe: true, id: '3EB0NOTOURS' }, update: { status: proto.WebMessageInfo.Status.ERROR } },
    ]);
    await (t.app.channels.get(whatsappId) as unknown as { whenIdle(): Promise<void> }).whenIdle();
    expect(await state()).toEqual(before);
  });
});

describe('a message that cannot be read', () => {
  it('is stored as a placeholder that opens the ticket, and its content fills it in when it arrives', async () => {
    const number = `55119${String(++seq).padStart(8, '0')}`;
    const jid = `${number}@s.whatsapp.net`;
    // What Baileys upserts for an ad's lead that came while the phone was offline (no content in the node).
    upsert(
      wa({ remoteJid: jid, id: 'CTWA-1' }, undefined, {
        messageStubType: proto.WebMessageInfo.StubType.CIPHERTEXT,
        messageStubParameters: ['Message absent from node'],
        pushName: 'Lead do anúncio',
      }),
    );
    const ticket = await eventually(async () => (await ticketOf(t.api, a.admin.token, number)) ?? false);
    expect(ticket).toMatchObject({ unreadMessages: 1, lastMessage: '⚠️' });
    expect(ticket.contact.name).toBe('Lead do anúncio');
    const [placeholder] = await messagesOf(ticket.id);
    expect(placeholder).toMatchObject({ wid: 'CTWA-1', fromMe: false, body: '', mediaType: 'unavailable' });

    const client = await connectSocket(t.app.url, a.admin.token);
    try {
      await joined(client, 'joinChatBox', String(ticket.id));
      const heard: any[] = [];
      client.on(`company-${a.companyId}-appMessage`, (e) => heard.push(e));
      // The phone's placeholder resend: the same id, now with its content.
      upsert(wa({ remoteJid: jid, id: 'CTWA-1' }, { conversation: 'Quero saber do anúncio' }, { pushName: 'Lead do anúncio' }));
      await eventually(() => expect(heard.some((e) => e.action === 'update' && e.message.id === placeholder.id && e.message.mediaType === 'chat')).toBe(true));
    } finally {
      client.close();
    }
    const messages = await messagesOf(ticket.id);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ id: placeholder.id, wid: 'CTWA-1', body: 'Quero saber do anúncio', mediaType: 'chat' });
    expect((await ticketOf(t.api, a.admin.token, number)).lastMessage).toBe('Quero saber do anúncio');
  });

  it('a decryption failure is a placeholder too, completed by the retry with its media', async () => {
    const number = `55119${String(++seq).padStart(8, '0')}`;
    const jid = `${number}@s.whatsapp.net`;
    upsert(wa({ remoteJid: jid, id: 'BADMAC-1' }, undefined, { messageStubType: proto.WebMessageInfo.StubType.CIPHERTEXT, messageStubParameters: ['Bad MAC'] }));
    const ticket = await eventually(async () => (await ticketOf(t.api, a.admin.token, number)) ?? false);
    // Baileys upserts the stub again on each failed attempt: still one message.
    upsert(wa({ remoteJid: jid, id: 'BADMAC-1' }, undefined, { messageStubType: proto.WebMessageInfo.StubType.CIPHERTEXT, messageStubParameters: ['Bad MAC'] }));
    upsert(wa({ remoteJid: jid, id: 'BADMAC-1' }, { imageMessage: { mimetype: 'image/jpeg', caption: 'a foto' } }));
    await eventually(async () => (await messagesOf(ticket.id))[0]?.mediaUrl ?? false);
    const messages = await messagesOf(ticket.id);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ wid: 'BADMAC-1', body: 'a foto', mediaType: 'image' });
    const media = await fetch(t.app.url + messages[0].mediaUrl);
    expect(Buffer.from(await media.arrayBuffer()).toString()).toBe('media-bytes');
  });
});

describe('a message of a kind the desk cannot show', () => {
  it('a view-once photo (an empty message flagged isViewOnce) opens the ticket as a placeholder naming it', async () => {
    const number = `55119${String(++seq).padStart(8, '0')}`;
    const jid = `${number}@s.whatsapp.net`;
    // What Baileys upserts for a view-once media on a linked device: no content, no stub.
    const viewOnce = wa({ remoteJid: jid, id: 'VO-1' }, undefined, { pushName: 'Cliente VO' });
    viewOnce.key.isViewOnce = true;
    upsert(viewOnce);
    const ticket = await eventually(async () => (await ticketOf(t.api, a.admin.token, number)) ?? false);
    expect(ticket).toMatchObject({ unreadMessages: 1, lastMessage: '👁️' });
    // An order and a list answer in the same chat: a placeholder, and the text the customer tapped.
    upsert(
      wa({ remoteJid: jid, id: 'ORDER-1' }, { orderMessage: { orderId: '77', itemCount: 2, orderTitle: 'Pedido' } }),
      wa({ remoteJid: jid, id: 'LIST-1' }, { listResponseMessage: { title: 'Falar com vendas', singleSelectReply: { selectedRowId: 'sales' } } }),
    );
    await eventually(async () => (await messagesOf(ticket.id)).length === 3);
    expect((await messagesOf(ticket.id)).map((m) => [m.wid, m.mediaType, m.body])).toEqual([
      ['VO-1', 'unavailable', 'viewOnce'],
      ['ORDER-1', 'unavailable', 'order'],
      ['LIST-1', 'chat', 'Falar com vendas'],
    ]);
  });
});

describe('a media message', () => {
  const mediaDir = () => path.join(t.app.config.dataDir, 'media', String(a.companyId));
  const leftovers = () => readdirSync(mediaDir()).filter((f) => f.endsWith('.part'));

  it('is stored at once with its media pending, in its place; the download completes it later, outside the chat’s order', async () => {
    const { jid, ticketId } = await customer();
    const photo = randomBytes(100 * 1024);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const imageMessage = { ...(await encryptedImage('photo-1', photo, { held })), caption: 'a foto' };
    const client = await connectSocket(t.app.url, a.admin.token);
    try {
      await joined(client, 'joinChatBox', String(ticketId));
      const heard: any[] = [];
      client.on(`company-${a.companyId}-appMessage`, (e) => heard.push(e));
      upsert(wa({ remoteJid: jid, id: 'PHOTO-1' }, { imageMessage }));
      upsert(wa({ remoteJid: jid, id: 'AFTER-PHOTO' }, { conversation: 'chegou?' }));
      // Both are there while the photo is still on its way: the text did not wait for it.
      await eventually(async () => (await messagesOf(ticketId)).some((m) => m.wid === 'AFTER-PHOTO'));
      const during = await messagesOf(ticketId);
      const photoRow = during.find((m) => m.wid === 'PHOTO-1');
      expect(photoRow).toMatchObject({ mediaType: 'image', body: 'a foto', mediaStatus: 'pending', mediaUrl: null });
      expect(during.findIndex((m) => m.wid === 'PHOTO-1')).toBeLessThan(during.findIndex((m) => m.wid === 'AFTER-PHOTO'));
      expect(heard.find((e) => e.action === 'create' && e.message.wid === 'PHOTO-1')?.message).toMatchObject({ mediaStatus: 'pending' });

      release();
      const done = await eventually(() => heard.find((e) => e.action === 'update' && e.message.id === photoRow.id && e.message.mediaStatus === null) ?? false);
      expect(done.message.mediaUrl).toBeTruthy();
      const served = await fetch(t.app.url + done.message.mediaUrl);
      expect(Buffer.from(await served.arrayBuffer()).equals(photo)).toBe(true);
    } finally {
      client.close();
    }
    expect(leftovers()).toEqual([]);
  });

  it('over the size limit is marked too large: refused from its announced size, or stopped once past the limit', async () => {
    const { jid, ticketId } = await customer();
    const big = randomBytes(MAX_BYTES + 64 * 1024);
    // Announced larger than the limit: not even fetched.
    const announced = await encryptedImage('big-announced', big);
    // Announced small (a sender can lie): the download is cut off past the limit.
    const lying = await encryptedImage('big-lying', big, { announcedLength: 1000 });
    const before = readdirSync(mediaDir()).length;
    upsert(wa({ remoteJid: jid, id: 'BIG-1' }, { imageMessage: announced }), wa({ remoteJid: jid, id: 'BIG-2' }, { imageMessage: lying }));
    await eventually(async () => {
      const rows = (await messagesOf(ticketId)).filter((m) => m.wid?.startsWith('BIG-'));
      return rows.length === 2 && rows.every((m) => m.mediaStatus === 'tooLarge');
    });
    for (const m of (await messagesOf(ticketId)).filter((m) => m.wid?.startsWith('BIG-'))) expect(m).toMatchObject({ mediaType: 'image', mediaUrl: null });
    expect(media.requests).not.toContain('big-announced');
    expect(media.requests).toContain('big-lying');
    // Nothing of either is kept.
    expect(readdirSync(mediaDir()).length).toBe(before);
    expect(leftovers()).toEqual([]);
  });

  it('whose download fails is marked failed, and the clients are told', async () => {
    const { jid, ticketId } = await customer();
    const imageMessage = await encryptedImage('broken', randomBytes(2048), { status: 500 });
    const client = await connectSocket(t.app.url, a.admin.token);
    try {
      await joined(client, 'joinChatBox', String(ticketId));
      const heard: any[] = [];
      client.on(`company-${a.companyId}-appMessage`, (e) => heard.push(e));
      upsert(wa({ remoteJid: jid, id: 'BROKEN-1' }, { imageMessage }));
      await eventually(() => heard.some((e) => e.action === 'update' && e.message.wid === 'BROKEN-1' && e.message.mediaStatus === 'failed'));
    } finally {
      client.close();
    }
    expect((await messagesOf(ticketId)).find((m) => m.wid === 'BROKEN-1')).toMatchObject({ mediaType: 'image', mediaStatus: 'failed', mediaUrl: null });
    expect(leftovers()).toEqual([]);
  });
});

describe('a media left pending by a download that died with its process', () => {
  it('is marked failed once it is stale, and the clients are told; a recent one is left to its download', async () => {
    const { number, ticketId } = await customer();
    const key = { id: whatsappId, companyId: a.companyId };
    const pending = (id: string) => ({ id, fromMe: false, chat: { number, lid: null }, body: '', mediaType: 'image' as const, mediaStatus: 'pending' as const, timestamp: new Date() });
    await acceptInbound(t.app.pipeline, key, pending('LOST-1'));
    await acceptInbound(t.app.pipeline, key, pending('RECENT-1'));
    await em().getConnection().execute(`update messages set updated_at = now() - make_interval(secs => ?) where wid = 'LOST-1'`, [STALE_MEDIA_MS / 1000 + 60]);
    const client = await connectSocket(t.app.url, a.admin.token);
    try {
      await joined(client, 'joinChatBox', String(ticketId));
      const heard: any[] = [];
      client.on(`company-${a.companyId}-appMessage`, (e) => heard.push(e));
      expect(await failStaleMedia(t.app.pipeline, new Date())).toBe(1);
      await eventually(() => heard.some((e) => e.action === 'update' && e.message.wid === 'LOST-1' && e.message.mediaStatus === 'failed'));
    } finally {
      client.close();
    }
    const rows = await messagesOf(ticketId);
    expect(rows.find((m) => m.wid === 'LOST-1')).toMatchObject({ mediaStatus: 'failed' });
    expect(rows.find((m) => m.wid === 'RECENT-1')).toMatchObject({ mediaStatus: 'pending' });
  });
});

describe('reactions', () => {
  it('a reaction taken back (empty text) takes that person’s reaction off the message', async () => {
    const { jid, ticketId } = await customer();
    const res = await t.api.post(`/messages/${ticketId}`, { body: 'Pedido confirmado' }, a.admin.token);
    await eventually(async () => (await em().findOneOrFail(OutboundMessage, { wid: res.body.wid })).status === 'sent');
    const react = (id: string, text: string) =>
      upsert(wa({ remoteJid: jid, id }, { reactionMessage: { key: { remoteJid: jid, fromMe: true, id: res.body.wid }, text, senderTimestampMs: Date.now() } }));
    react('REACT-1', '👍');
    await eventually(async () => (await messagesOf(ticketId)).some((m) => m.wid === 'REACT-1'));
    const reaction = (await messagesOf(ticketId)).find((m) => m.wid === 'REACT-1');
    expect(reaction).toMatchObject({ mediaType: 'reactionMessage', body: '👍', quotedMsgId: res.body.id, isDeleted: false });

    const client = await connectSocket(t.app.url, a.admin.token);
    try {
      await joined(client, 'joinChatBox', String(ticketId));
      const heard: any[] = [];
      client.on(`company-${a.companyId}-appMessage`, (e) => heard.push(e));
      react('REACT-2', '');
      await eventually(() => expect(heard.some((e) => e.action === 'update' && e.message.id === reaction.id && e.message.isDeleted === true)).toBe(true));
    } finally {
      client.close();
    }
    const after = await messagesOf(ticketId);
    expect(after.find((m) => m.id === reaction.id)).toMatchObject({ isDeleted: true });
    // The removal is no message of its own, and the list's preview is the message before it.
    expect(after.some((m) => m.wid === 'REACT-2')).toBe(false);
    expect((await ticketOf(t.api, a.admin.token, jid.split('@')[0])).lastMessage).toBe('Pedido confirmado');
  });
});

describe('a voice note', () => {
  it('recorded as WebM reaches the phone as a mono Ogg/Opus voice note with its length', async () => {
    const { ticketId } = await customer();
    const webm = await recordedWebm(2);
    const form = new FormData();
    form.append('medias', new Blob([webm], { type: 'audio/webm' }), 'audio-record.webm');
    form.append('voiceNote', 'true');
    form.append('body', '');
    const res = await fetch(`${t.app.url}/messages/${ticketId}`, { method: 'POST', body: form, headers: { authorization: `Bearer ${a.admin.token}` } });
    expect(res.status).toBe(200);
    const [queued] = (await res.json()) as any[];
    expect(queued).toMatchObject({ mediaType: 'audio', mediaName: 'audio-record.ogg' });
    await eventually(async () => (await em().findOneOrFail(OutboundMessage, { wid: queued.wid })).status === 'sent');

    const sent = socket().sent.find((s) => s.options?.messageId === queued.wid)!;
    const content = sent.content as { audio: Buffer; mimetype: string; ptt: boolean; seconds: number };
    expect(content).toMatchObject({ mimetype: 'audio/ogg; codecs=opus', ptt: true, seconds: 2 });
    const info = readOggOpus(content.audio);
    expect(info.channels).toBe(1);
    expect(Math.round(info.seconds)).toBe(2);
    // The stored copy the agent plays is the same file.
    const stored = await fetch(t.app.url + queued.mediaUrl);
    expect(Buffer.from(await stored.arrayBuffer()).equals(content.audio)).toBe(true);
  });
});
