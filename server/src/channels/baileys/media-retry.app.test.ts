import { randomBytes } from 'node:crypto';
import { proto, type WAMessage, type WAMessageKey } from '@whiskeysockets/baileys';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forCompany } from '../../db/tenant.js';
import { Message } from '../../modules/messages/message.entity.js';
import { acceptInbound } from '../../pipeline/inbound.js';
import { resumePendingMedia, RESUME_MEDIA_WINDOW_MS } from '../../pipeline/media.js';
import { startBaileysApp, type BaileysApp } from '../../../testing/baileys-app.js';
import { ticketOf } from '../../../testing/conversation.js';
import { startMediaServer, type MediaServer } from '../../../testing/whatsapp-media.js';
import { connectSocket, createTenant, eventually, joined, watch, type Tenant, type TestApp } from '../../../testing/helpers.js';
import { defaultDownloadMedia } from './session.js';

/**
 * A received media fetched again: taken up when the session connects (what a crash left pending), and on
 * an agent's request (POST /messages/{id}/media) after a failed download, with the phone asked to upload
 * a file WhatsApp's servers no longer have. Real Baileys message objects through an injected socket, the
 * real download and decryption from a local HTTP server playing WhatsApp's media servers.
 */
let t: TestApp;
let a: Tenant;
let b: Tenant;
let whatsappId: number;
let baileys: BaileysApp;
const socket = () => baileys.socket();
let seq = 0;

/** WhatsApp's media servers (testing/whatsapp-media.ts). */
let media: MediaServer;
const encryptedImage = (name: string, plain: Buffer, status?: number) => media.image(name, plain, { status });

beforeAll(async () => {
  media = await startMediaServer();

  baileys = await startBaileysApp({ tenant: 'RetryA', provider: { downloadMedia: defaultDownloadMedia } });
  ({ t, tenant: a, whatsappId } = baileys);
  b = await createTenant(t, 'RetryB');
});
afterAll(async () => {
  await t?.stop();
  await media?.close();
});

const em = () => forCompany(t.app.orm.em.fork(), a.companyId);
const messagesOf = async (ticketId: number, token = a.admin.token) => (await t.api.get(`/messages/${ticketId}`, token)).body.messages as any[];
const retry = (id: number, token = a.admin.token) => t.api.post(`/messages/${id}/media`, {}, token);

const wa = (key: Partial<WAMessageKey> & { remoteJid: string; id: string }, message: Record<string, unknown>, at = new Date()) =>
  proto.WebMessageInfo.fromObject({ key: { fromMe: false, ...key }, message, messageTimestamp: Math.floor(at.getTime() / 1000) }) as WAMessage;
const upsert = (...messages: WAMessage[]) => baileys.upsert(...messages);

const customer = async () => {
  const number = `55118${String(++seq).padStart(8, '0')}`;
  const jid = `${number}@s.whatsapp.net`;
  upsert(wa({ remoteJid: jid, id: `HI-${number}` }, { conversation: 'Oi' }));
  const ticket = await eventually(async () => (await ticketOf(t.api, a.admin.token, number)) ?? false);
  return { number, jid, ticketId: ticket.id as number };
};

/** A received photo whose first download failed (WhatsApp's server answered 500). */
const failedPhoto = async (jid: string, ticketId: number, wid: string, plain: Buffer) => {
  const imageMessage = await encryptedImage(wid, plain, 500);
  upsert(wa({ remoteJid: jid, id: wid }, { imageMessage }));
  await eventually(async () => (await messagesOf(ticketId)).find((m) => m.wid === wid)?.mediaStatus === 'failed');
  return (await messagesOf(ticketId)).find((m) => m.wid === wid);
};

/** The session is stopped and started again on this server, as at a restart; it connects. */
const restartSession = async () => {
  await t.app.channels.stop(whatsappId);
  const before = baileys.sockets.length;
  await t.app.channels.start({ id: whatsappId, companyId: a.companyId, provider: 'beta' });
  await eventually(() => baileys.sockets.length > before);
  socket().open('5511900001111:7@s.whatsapp.net');
};

describe('a media left pending by a process that died', () => {
  it('is downloaded when the session connects again, and the clients are told; one older than the window is left', async () => {
    const { number, jid, ticketId } = await customer();
    const photo = randomBytes(40 * 1024);
    const key = { id: whatsappId, companyId: a.companyId };
    // What a crash leaves: the message stored with its Baileys object and its media pending, no download running.
    const left = (wid: string, imageMessage: Record<string, unknown>, at: Date) =>
      acceptInbound(t.app.pipeline, key, {
        id: wid,
        fromMe: false,
        chat: { number, lid: null },
        body: '',
        mediaType: 'image',
        mediaStatus: 'pending',
        timestamp: at,
        raw: JSON.parse(JSON.stringify(wa({ remoteJid: jid, id: wid }, { imageMessage }, at))),
      });
    await left('CRASH-1', await encryptedImage('crash-1', photo), new Date());
    const old = new Date(Date.now() - RESUME_MEDIA_WINDOW_MS - 60_000);
    await left('CRASH-OLD', await encryptedImage('crash-old', randomBytes(1024)), old);
    expect((await messagesOf(ticketId)).find((m) => m.wid === 'CRASH-1')).toMatchObject({ mediaStatus: 'pending', mediaUrl: null });

    const client = await connectSocket(t.app.url, a.admin.token);
    try {
      await joined(client, 'joinChatBox', String(ticketId));
      const heard: any[] = [];
      client.on(`company-${a.companyId}-appMessage`, (e) => heard.push(e));
      await restartSession();
      const done = await eventually(() => heard.find((e) => e.action === 'update' && e.message.wid === 'CRASH-1' && e.message.mediaStatus === null) ?? false);
      const served = await fetch(t.app.url + done.message.mediaUrl);
      expect(Buffer.from(await served.arrayBuffer()).equals(photo)).toBe(true);
    } finally {
      client.close();
    }
    expect(media.requests).not.toContain('crash-old');
    expect(await em().findOneOrFail(Message, { wid: 'CRASH-OLD' })).toMatchObject({ mediaStatus: 'pending' });
  });

  it('one without its message object is marked failed at once rather than after 15 minutes', async () => {
    const { number } = await customer();
    await acceptInbound(t.app.pipeline, { id: whatsappId, companyId: a.companyId }, {
      id: 'NORAW-1',
      fromMe: false,
      chat: { number, lid: null },
      body: '',
      mediaType: 'image',
      mediaStatus: 'pending',
      timestamp: new Date(),
    });
    expect(await resumePendingMedia(t.app.pipeline, { id: whatsappId, companyId: a.companyId })).toBe(0);
    expect(await em().findOneOrFail(Message, { wid: 'NORAW-1' })).toMatchObject({ mediaStatus: 'failed' });
  });
});

describe('POST /messages/{id}/media', () => {
  it('fetches a failed media again: pending at once for everyone, then the file', async () => {
    const { jid, ticketId } = await customer();
    const photo = randomBytes(30 * 1024);
    const failed = await failedPhoto(jid, ticketId, 'RETRY-1', photo);
    // WhatsApp's server has it again.
    media.files.get('RETRY-1')!.status = undefined;
    const client = await connectSocket(t.app.url, a.admin.token);
    try {
      await joined(client, 'joinChatBox', String(ticketId));
      const heard: any[] = [];
      client.on(`company-${a.companyId}-appMessage`, (e) => heard.push(e));
      const res = await retry(failed.id);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ id: failed.id, mediaStatus: 'pending', mediaUrl: null });
      const done = await eventually(() => heard.find((e) => e.action === 'update' && e.message.id === failed.id && e.message.mediaStatus === null) ?? false);
      const updates = heard.filter((e) => e.action === 'update' && e.message.id === failed.id).map((e) => e.message.mediaStatus);
      expect(updates).toEqual(['pending', null]);
      const served = await fetch(t.app.url + done.message.mediaUrl);
      expect(Buffer.from(await served.arrayBuffer()).equals(photo)).toBe(true);
    } finally {
      client.close();
    }
    // Downloaded now: nothing more to fetch.
    expect((await retry(failed.id)).body).toEqual({ error: 'ERR_MEDIA_NOT_FAILED' });
  });

  it('a file WhatsApp no longer has (410) is uploaded again by the phone and then downloaded', async () => {
    const { jid, ticketId } = await customer();
    const photo = randomBytes(20 * 1024);
    const imageMessage = await encryptedImage('expired', photo, 410);
    const reuploads: string[] = [];
    // The phone is offline at first: the re-upload request fails and so does the download.
    socket().updateMediaMessage = async (msg) => {
      reuploads.push(msg.key.id!);
      if (reuploads.length === 1) throw new Error('the phone did not answer');
      // The phone uploaded the same file again, to a new address.
      media.files.set('reuploaded', { encrypted: media.files.get('expired')!.encrypted });
      const fresh = proto.WebMessageInfo.fromObject(JSON.parse(JSON.stringify(msg))) as WAMessage;
      fresh.message!.imageMessage!.url = `${media.base}/reuploaded.enc`;
      fresh.message!.imageMessage!.mediaKey = msg.message!.imageMessage!.mediaKey;
      return fresh;
    };
    upsert(wa({ remoteJid: jid, id: 'EXPIRED-1' }, { imageMessage }));
    await eventually(async () => (await messagesOf(ticketId)).find((m) => m.wid === 'EXPIRED-1')?.mediaStatus === 'failed');
    const failed = (await messagesOf(ticketId)).find((m) => m.wid === 'EXPIRED-1');

    expect((await retry(failed.id)).status).toBe(200);
    const done = await eventually(async () => (await messagesOf(ticketId)).find((m) => m.id === failed.id && m.mediaStatus === null) ?? false);
    expect(reuploads).toEqual(['EXPIRED-1', 'EXPIRED-1']);
    const served = await fetch(t.app.url + done.mediaUrl);
    expect(Buffer.from(await served.arrayBuffer()).equals(photo)).toBe(true);
  });

  it('fails again when the download fails again, and the clients are told', async () => {
    const { jid, ticketId } = await customer();
    const failed = await failedPhoto(jid, ticketId, 'AGAIN-1', randomBytes(1024));
    const client = await connectSocket(t.app.url, a.admin.token);
    try {
      await joined(client, 'joinChatBox', String(ticketId));
      const heard: any[] = [];
      client.on(`company-${a.companyId}-appMessage`, (e) => heard.push(e));
      expect((await retry(failed.id)).status).toBe(200);
      await eventually(() => heard.filter((e) => e.action === 'update' && e.message.id === failed.id).map((e) => e.message.mediaStatus).join() === 'pending,failed');
    } finally {
      client.close();
    }
    // And may be tried again.
    expect((await retry(failed.id)).status).toBe(200);
    await eventually(async () => (await em().findOneOrFail(Message, failed.id)).mediaStatus === 'failed');
  });

  it('refuses a message without a file, a file not failed, one without its message object, and says nothing to the clients', async () => {
    const { number, jid, ticketId } = await customer();
    const text = (await messagesOf(ticketId)).find((m) => m.wid === `HI-${number}`);
    expect((await retry(text.id)).body).toEqual({ error: 'ERR_NO_MEDIA_TO_FETCH' });
    expect((await retry(text.id)).status).toBe(409);

    upsert(wa({ remoteJid: jid, id: 'BIG-1' }, { imageMessage: { ...(await encryptedImage('big', randomBytes(1024))), fileLength: 500 * 1024 * 1024 } }));
    await eventually(async () => (await messagesOf(ticketId)).find((m) => m.wid === 'BIG-1')?.mediaStatus === 'tooLarge');
    const big = (await messagesOf(ticketId)).find((m) => m.wid === 'BIG-1');
    // Too large stays final.
    expect((await retry(big.id)).body).toEqual({ error: 'ERR_MEDIA_NOT_FAILED' });

    const { number: other } = await customer();
    await acceptInbound(t.app.pipeline, { id: whatsappId, companyId: a.companyId }, {
      id: 'NORAW-2',
      fromMe: false,
      chat: { number: other, lid: null },
      body: '',
      mediaType: 'image',
      mediaStatus: 'failed',
      timestamp: new Date(),
    });
    const noRaw = await em().findOneOrFail(Message, { wid: 'NORAW-2' });
    const client = await connectSocket(t.app.url, a.admin.token);
    try {
      await joined(client, 'joinChatBox', String(noRaw.ticketId));
      const hears = watch(client, `company-${a.companyId}-appMessage`);
      const res = await retry(noRaw.id);
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ error: 'ERR_NO_MEDIA_TO_FETCH' });
      expect((await em().findOneOrFail(Message, noRaw.id)).mediaStatus).toBe('failed');
      // The customer's next message is the sentinel: no update of the refused one came before it.
      upsert(wa({ remoteJid: `${other}@s.whatsapp.net`, id: 'SENTINEL-1' }, { conversation: 'e aí?' }));
      const before = await hears.before(`company-${a.companyId}-appMessage`, (p) => p.message?.wid === 'SENTINEL-1');
      expect(before).toEqual([]);
    } finally {
      client.close();
    }
  });

  it('refuses while the connection is not connected, and leaves the message failed', async () => {
    const { jid, ticketId } = await customer();
    const failed = await failedPhoto(jid, ticketId, 'OFFLINE-1', randomBytes(1024));
    await t.app.channels.stop(whatsappId);
    try {
      const res = await retry(failed.id);
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ error: 'ERR_WAPP_NOT_INITIALIZED' });
      expect((await em().findOneOrFail(Message, failed.id)).mediaStatus).toBe('failed');
    } finally {
      await restartSession();
      await eventually(async () => (await t.api.get(`/whatsapp/${whatsappId}`, a.admin.token)).body.status === 'CONNECTED');
    }
  });

  it('another company’s message id is not found, a ticket the caller may not see is refused, and nothing changes', async () => {
    const { jid, ticketId } = await customer();
    const failed = await failedPhoto(jid, ticketId, 'OTHERCO-1', randomBytes(1024));
    const res = await retry(failed.id, b.admin.token);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'ERR_NO_MESSAGE_FOUND' });
    expect((await em().findOneOrFail(Message, failed.id)).mediaStatus).toBe('failed');
    // A colleague who may not see the ticket (no queue of it, not the all-tickets flag) may not either.
    const agent = await retry(failed.id, a.agent.token);
    expect(agent.status).toBe(403);
    expect(agent.body).toEqual({ error: 'ERR_NO_PERMISSION' });
    expect((await em().findOneOrFail(Message, failed.id)).mediaStatus).toBe('failed');
    expect((await t.api.post('/messages/999999/media', {}, a.admin.token)).status).toBe(404);
    expect((await t.api.post('/messages/abc/media', {}, a.admin.token)).status).toBe(400);
    expect((await t.api.post('/messages/2147483648/media', {}, a.admin.token)).status).toBe(400);
    expect((await t.api.post(`/messages/${failed.id}/media`, {})).status).toBe(401);
  });

  it('on the sandbox phone, which keeps no copy of what it delivered, is refused and the media stays failed', async () => {
    const created = await t.api.post('/whatsapp', { name: 'Sandbox', provider: 'sandbox' }, b.admin.token);
    expect(created.status).toBe(201);
    const sandboxId = created.body.id as number;
    await eventually(async () => (await t.api.post(`/sandbox/${sandboxId}/scan`, {}, b.admin.token)).status === 200);
    const sent = await t.api.post(
      `/sandbox/${sandboxId}/messages`,
      { from: '5521977776666', body: 'foto', media: { mimetype: 'image/png', filename: 'a.png', base64: Buffer.from('png').toString('base64') } },
      b.admin.token,
    );
    expect(sent.status).toBe(201);
    const bem = forCompany(t.app.orm.em.fork(), b.companyId);
    const message = (await eventually(async () => (await bem.findOne(Message, { whatsappId: sandboxId, wid: sent.body.id })) ?? false)) as Message;
    // Say its file was lost (the sandbox never loses one by itself).
    await bem.nativeUpdate(Message, { id: message.id }, { mediaStatus: 'failed' });
    const res = await retry(message.id, b.admin.token);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: 'ERR_MEDIA_REFETCH_UNSUPPORTED' });
    expect((await forCompany(t.app.orm.em.fork(), b.companyId).findOneOrFail(Message, message.id)).mediaStatus).toBe('failed');
  });
});
