import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { proto, type WAMessage } from '@whiskeysockets/baileys';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp } from '../app.js';
import { createBaileysProvider, defaultDownloadMedia } from '../channels/baileys/index.js';
import { loadConfig } from '../config.js';
import { forCompany } from '../db/tenant.js';
import { createLogger } from '../logger.js';
import { OutboundMessage } from '../modules/outbox/outbound-message.entity.js';
import { FakeSocket } from '../../testing/baileys-socket.js';
import { connectSandbox, customerSays, ticketOf } from '../../testing/conversation.js';
import { createTenant, eventually, startTestApp, type Tenant, type TestApp } from '../../testing/helpers.js';
import { startS3Server, type S3Server } from '../../testing/s3.js';
import { recordedWebm } from '../../testing/voice.js';
import { startMediaServer, type MediaServer } from '../../testing/whatsapp-media.js';

/**
 * The server with MEDIA_STORAGE=s3 against a local S3-protocol server (s3rver): what a customer sends,
 * what an agent uploads and the outbox sends, file lists and quick messages all live in the bucket under
 * their company, are served only through signed URLs to that company, and go with a deleted company.
 */
let s3: S3Server;
let whatsappMedia: MediaServer;
let t: TestApp;
let a: Tenant;
let b: Tenant;
let whatsappId: number;
const sockets: FakeSocket[] = [];
const socket = () => sockets[sockets.length - 1];
let seq = 0;
/** MEDIA_DOWNLOAD_MAX_MB 0.25. */
const MAX_BYTES = 256 * 1024;
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
const PDF = Buffer.from('%PDF-1.4 boleto');

beforeAll(async () => {
  s3 = await startS3Server();
  whatsappMedia = await startMediaServer();
  const beta = createBaileysProvider({
    socketFactory: (config) => {
      const s = new FakeSocket(config);
      sockets.push(s);
      return s;
    },
    downloadMedia: defaultDownloadMedia,
    fetchWebVersion: async () => undefined,
  });
  t = await startTestApp({ ...s3.env, MEDIA_DOWNLOAD_MAX_MB: '0.25' }, { providers: { beta } });
  a = await createTenant(t, 'S3A');
  b = await createTenant(t, 'S3B');
  const created = await t.api.post('/whatsapp', { name: 'Phone', provider: 'beta' }, a.admin.token);
  expect(created.status).toBe(201);
  whatsappId = created.body.id;
  await eventually(() => sockets.length === 1);
  socket().open('5511900002222:7@s.whatsapp.net');
  await eventually(async () => (await t.api.get(`/whatsapp/${whatsappId}`, a.admin.token)).body.status === 'CONNECTED');
});
afterAll(async () => {
  await t?.stop();
  await whatsappMedia?.close();
  await s3?.stop();
});

const em = () => forCompany(t.app.orm.em.fork(), a.companyId);
const messagesOf = async (ticketId: number, token = a.admin.token) => (await t.api.get(`/messages/${ticketId}`, token)).body.messages as any[];
const objectsOf = async (companyId: number) => (await s3.keys(`${companyId}/`)).map((key) => key.slice(`${companyId}/`.length));
const download = async (url: string) => {
  const res = await fetch(t.app.url + url);
  return { status: res.status, type: res.headers.get('content-type'), csp: res.headers.get('content-security-policy'), body: Buffer.from(await res.arrayBuffer()) };
};
const fileOf = (mediaUrl: string) => mediaUrl.split('?')[0].split('/').pop()!;

const upsert = (remoteJid: string, id: string, message: Record<string, unknown>) =>
  socket().emit('messages.upsert', {
    type: 'notify',
    messages: [proto.WebMessageInfo.fromObject({ key: { remoteJid, id, fromMe: false }, message, messageTimestamp: Math.floor(Date.now() / 1000) }) as WAMessage],
  });

/** A customer who wrote, with the ticket the admin accepted. */
const customer = async () => {
  const number = `55118${String(++seq).padStart(8, '0')}`;
  const jid = `${number}@s.whatsapp.net`;
  upsert(jid, `IN-${number}`, { conversation: 'Oi' });
  const ticket = await eventually(async () => (await ticketOf(t.api, a.admin.token, number)) ?? false);
  await t.api.put(`/tickets/${ticket.id}`, { status: 'open' }, a.admin.token);
  return { jid, ticketId: ticket.id as number };
};

const postForm = async (url: string, token: string, form: FormData) => {
  const res = await fetch(t.app.url + url, { method: 'POST', body: form, headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, body: (await res.json()) as any };
};

describe('with MEDIA_STORAGE=s3', () => {
  it('a customer’s photo is streamed from WhatsApp into the bucket under its company, and served from there', async () => {
    const { jid, ticketId } = await customer();
    const photo = randomBytes(100 * 1024);
    upsert(jid, 'S3-PHOTO', { imageMessage: { ...(await whatsappMedia.image('s3-photo', photo)), caption: 'a foto' } });
    const message = await eventually(async () => (await messagesOf(ticketId)).find((m) => m.wid === 'S3-PHOTO' && m.mediaUrl) ?? false);
    expect(message).toMatchObject({ mediaType: 'image', body: 'a foto', mediaStatus: null });
    expect(await objectsOf(a.companyId)).toContain(fileOf(message.mediaUrl));
    const served = await download(message.mediaUrl);
    expect(served).toMatchObject({ status: 200, type: 'image/jpeg', csp: "default-src 'none'; sandbox" });
    expect(served.body.equals(photo)).toBe(true);
    // Nothing went to the local disk.
    expect(existsSync(path.join(t.app.config.dataDir, 'media'))).toBe(false);
  });

  it('a download past the size limit is cut off and leaves no object behind', async () => {
    const { jid, ticketId } = await customer();
    const before = await objectsOf(a.companyId);
    // Announced small (a sender can lie): stopped once past the limit.
    upsert(jid, 'S3-BIG', { imageMessage: await whatsappMedia.image('s3-big', randomBytes(MAX_BYTES + 64 * 1024), { announcedLength: 1000 }) });
    await eventually(async () => (await messagesOf(ticketId)).find((m) => m.wid === 'S3-BIG')?.mediaStatus === 'tooLarge');
    expect(whatsappMedia.requests).toContain('s3-big');
    expect(await objectsOf(a.companyId)).toEqual(before);
  });

  it('an agent’s files and voice note are kept in the bucket and sent through the outbox from it', async () => {
    const { ticketId } = await customer();
    const form = new FormData();
    form.append('medias', new Blob([PNG], { type: 'image/png' }), 'a.png');
    form.append('medias', new Blob([PDF], { type: 'application/pdf' }), 'boleto.pdf');
    form.append('body', 'a foto');
    form.append('body', 'o boleto');
    const res = await postForm(`/messages/${ticketId}`, a.admin.token, form);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const voice = new FormData();
    voice.append('medias', new Blob([await recordedWebm(1)], { type: 'audio/webm' }), 'audio-record.webm');
    voice.append('voiceNote', 'true');
    voice.append('body', '');
    const recorded = await postForm(`/messages/${ticketId}`, a.admin.token, voice);
    expect(recorded.status, JSON.stringify(recorded.body)).toBe(200);
    const queued = [...res.body, ...recorded.body] as { wid: string; mediaUrl: string }[];
    for (const q of queued) await eventually(async () => (await em().findOneOrFail(OutboundMessage, { wid: q.wid })).status === 'sent');

    const sent = (wid: string) => socket().sent.find((s) => s.options?.messageId === wid)!.content as Record<string, unknown>;
    expect(sent(queued[0].wid)).toMatchObject({ image: PNG, caption: 'a foto' });
    expect(sent(queued[1].wid)).toMatchObject({ document: PDF, fileName: 'boleto.pdf', caption: 'o boleto' });
    const note = sent(queued[2].wid) as { audio: Buffer; ptt: boolean };
    expect(note.ptt).toBe(true);
    const objects = await objectsOf(a.companyId);
    for (const q of queued) expect(objects).toContain(fileOf(q.mediaUrl));
    // The voice note the agent plays is the very file that went out.
    expect((await download(queued[2].mediaUrl)).body.equals(note.audio)).toBe(true);
  });

  it('a file list’s files live in the bucket and are served to its own company only', async () => {
    const list = await t.api.post('/files', { name: `Catálogo ${seq}`, message: 'Nosso catálogo', options: [{ name: 'Foto' }, { name: 'Preços' }] }, a.admin.token);
    expect(list.status, JSON.stringify(list.body)).toBe(201);
    const form = new FormData();
    form.append('fileId', String(list.body.id));
    form.append('typeArch', 'fileList');
    for (const [data, name, type, option] of [
      [PNG, 'foto.png', 'image/png', list.body.options[0]],
      [PDF, 'precos.pdf', 'application/pdf', list.body.options[1]],
    ] as const) {
      form.append('files', new Blob([data], { type }), name);
      form.append('id', String(option.id));
      form.append('mediaType', type);
    }
    const up = await postForm(`/files/uploadList/${list.body.id}`, a.admin.token, form);
    expect(up.status, JSON.stringify(up.body)).toBe(200);
    const [photo, prices] = up.body.options;
    expect(await objectsOf(a.companyId)).toEqual(expect.arrayContaining([photo.path, prices.path]));

    const read = await t.api.get(`/files/${list.body.id}`, a.agent.token);
    expect(read.status).toBe(200);
    expect(await download(read.body.options[0].mediaUrl)).toMatchObject({ status: 200, type: 'image/png', body: PNG });
    const pdf = await download(read.body.options[1].mediaUrl);
    expect(pdf).toMatchObject({ status: 200, type: 'application/pdf', body: PDF });

    // Another company's user gets neither the list nor a URL for its files.
    expect((await t.api.get(`/files/${list.body.id}`, b.admin.token)).status).toBe(404);
    const url: string = read.body.options[0].mediaUrl;
    expect((await download(url.replace(`/media/${a.companyId}/`, `/media/${b.companyId}/`))).status).toBe(403);
    expect((await download(url.split('?')[0])).status).toBe(400);
    expect((await download(url.replace(/signature=[^&]+/, 'signature=AAAA'))).status).toBe(403);
    expect((await download(url.replace(/expires=\d+/, 'expires=1000'))).status).toBe(403);
  });

  it('another company’s user cannot reach a ticket’s media; a signed URL for a removed object is 404', async () => {
    const { jid, ticketId } = await customer();
    upsert(jid, 'S3-DOC', { imageMessage: await whatsappMedia.image('s3-doc', PNG) });
    const message = await eventually(async () => (await messagesOf(ticketId)).find((m) => m.wid === 'S3-DOC' && m.mediaUrl) ?? false);
    const refused = await t.api.get(`/messages/${ticketId}`, b.admin.token);
    expect([403, 404]).toContain(refused.status);
    expect(JSON.stringify(refused.body)).not.toContain(fileOf(message.mediaUrl));
    // A URL signed for B's company names B's folder: A's object is not there.
    const signedForB = t.app.media.url(b.companyId, fileOf(message.mediaUrl))!;
    expect((await download(signedForB)).status).toBe(404);
    await t.app.media.remove(a.companyId, fileOf(message.mediaUrl));
    expect((await download(message.mediaUrl)).status).toBe(404);
  });

  it('a send whose file the bucket cannot give right now waits for it, instead of failing as a missing file', async () => {
    const { jid, ticketId } = await customer();
    const form = new FormData();
    form.append('medias', new Blob([PNG], { type: 'image/png' }), 'recibo.png');
    form.append('body', 'o recibo');
    const res = await postForm(`/messages/${ticketId}`, a.admin.token, form);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [queued] = res.body as { id: number; wid: string }[];
    const row = () => em().findOneOrFail(OutboundMessage, { wid: queued.wid });
    await eventually(async () => (await row()).status === 'sent');
    // The phone refuses it; the agent sends it again while the bucket is away.
    socket().emit('messages.update', [
      { key: { remoteJid: jid, fromMe: true, id: queued.wid }, update: { status: proto.WebMessageInfo.Status.ERROR, messageStubParameters: ['479'] } },
    ]);
    await eventually(async () => (await row()).status === 'failed');
    await s3.down();
    try {
      expect((await t.api.post(`/messages/${queued.id}/resend`, {}, a.admin.token)).status).toBe(200);
      // Tried, and put back in line like a channel error.
      await eventually(async () => {
        const r = await row();
        return r.status === 'pending' && r.lastError === 'ERR_SENDING_WAPP_MSG';
      });
    } finally {
      await s3.up();
    }
    await eventually(async () => (await row()).status === 'sent', 10_000);
    const sends = socket().sent.filter((s) => s.options?.messageId === queued.wid);
    expect(sends).toHaveLength(2);
    expect(sends[1].content).toMatchObject({ image: PNG, caption: 'o recibo' });
  });

  it('deleting a company removes its objects from the bucket, and no other company’s', async () => {
    const c = await createTenant(t, 'S3Gone');
    const wa = await connectSandbox(t.api, c.admin.token);
    await customerSays(t.api, c.admin.token, wa.id, { from: '5511977776666', body: 'foto', media: { mimetype: 'image/png', filename: 'f.png', base64: PNG.toString('base64') } });
    const quick = await t.api.post('/quick-messages', { shortcode: `qm-${seq}`, message: 'Olá' }, c.admin.token);
    const attach = new FormData();
    attach.append('file', new Blob([PDF], { type: 'application/pdf' }), 'tabela.pdf');
    expect((await postForm(`/quick-messages/${quick.body.id}/media-upload`, c.admin.token, attach)).status).toBe(200);
    expect(await objectsOf(c.companyId)).toHaveLength(2);
    // Another company's object of this test's own (the other tests' may not have run yet).
    const kept = await t.api.post('/quick-messages', { shortcode: `qm-kept-${seq}`, message: 'Fica' }, a.admin.token);
    const keptFile = new FormData();
    keptFile.append('file', new Blob([PDF], { type: 'application/pdf' }), 'fica.pdf');
    expect((await postForm(`/quick-messages/${kept.body.id}/media-upload`, a.admin.token, keptFile)).status).toBe(200);
    const othersBefore = await objectsOf(a.companyId);
    expect(othersBefore.length).toBeGreaterThan(0);

    expect((await t.api.del(`/companies/${c.companyId}`, t.superToken)).status).toBe(200);
    await eventually(async () => (await objectsOf(c.companyId)).length === 0);
    expect(await objectsOf(a.companyId)).toEqual(othersBefore);
  });
});

describe('a server whose bucket cannot be used', () => {
  it('does not start, and says which bucket without its secret', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'atrium-s3-start-'));
    try {
      const config = loadConfig({
        NODE_ENV: 'test',
        DATA_DIR: dataDir,
        ...s3.env,
        MEDIA_S3_BUCKET: 'missing-bucket',
        MEDIA_S3_SECRET_ACCESS_KEY: 'secret-that-must-not-show',
      });
      const failure = await startApp(config, { logger: createLogger('silent'), print: () => {} }).then(
        () => new Error('started'),
        (err: Error) => err,
      );
      expect(failure.message).toMatch(/^media storage \(bucket missing-bucket\) cannot be used/);
      expect(failure.message).not.toContain('secret-that-must-not-show');
      // Stopped before anything started: no database was made.
      expect(existsSync(path.join(dataDir, 'postgres'))).toBe(false);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
