import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3Server, type S3Server } from '../../testing/s3.js';
import type { S3MediaConfig } from '../config.js';
import { createLocalBackend } from './local-backend.js';
import { createS3Backend } from './s3-backend.js';
import { createMediaStore, MediaTooLargeError, type MediaStore } from './storage.js';

const MiB = 1024 * 1024;
const SECRET = 'x'.repeat(48);

/** `total` bytes in 64 KiB chunks, made as they are read; `produced` says how far the reader got. */
const source = (total: number, options: { failAt?: number } = {}) => {
  const state = { produced: 0, destroyed: false };
  const stream = new Readable({
    read() {
      if (options.failAt !== undefined && state.produced >= options.failAt) {
        this.destroy(new Error('connection reset'));
        return;
      }
      if (state.produced >= total) {
        this.push(null);
        return;
      }
      const size = Math.min(64 * 1024, total - state.produced);
      const chunk = Buffer.alloc(size);
      for (let i = 0; i < size; i += 1) chunk[i] = (state.produced + i) % 251;
      state.produced += size;
      this.push(chunk);
    },
    destroy(err, done) {
      state.destroyed = true;
      done(err);
    },
  });
  return { stream, state };
};

const expectedDigest = (total: number) => {
  const hash = createHash('sha256');
  const block = Buffer.alloc(64 * 1024);
  for (let at = 0; at < total; at += block.length) {
    const size = Math.min(block.length, total - at);
    for (let i = 0; i < size; i += 1) block[i] = (at + i) % 251;
    hash.update(block.subarray(0, size));
  }
  return hash.digest('hex');
};

const digestOf = async (stream: Readable) => {
  const hash = createHash('sha256');
  for await (const chunk of stream) hash.update(chunk as Buffer);
  return hash.digest('hex');
};

const code = (promise: Promise<unknown>) => promise.then(
  () => 'resolved',
  (err: { code?: string; name?: string }) => err.code ?? err.name,
);

interface Backend {
  store: MediaStore;
  /** Every name the backend holds for a company, in whatever state (partial uploads included where visible). */
  listed(companyId: number): Promise<string[]>;
  stop(): Promise<void>;
}

let s3: S3Server;
const s3Config = (over: Partial<S3MediaConfig>): S3MediaConfig => ({
  bucket: s3.bucket,
  region: 'us-east-1',
  endpoint: s3.endpoint,
  accessKeyId: 'S3RVER',
  secretAccessKey: 'S3RVER',
  forcePathStyle: true,
  prefix: '',
  ...over,
});
beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(async () => {
  await s3?.stop();
});

const backends: Record<'local' | 's3', () => Promise<Backend>> = {
  local: async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'atrium-media-'));
    return {
      store: createMediaStore({ backend: createLocalBackend({ dir }), secret: SECRET }),
      listed: async (companyId) => (existsSync(path.join(dir, String(companyId))) ? readdirSync(path.join(dir, String(companyId))) : []),
      stop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  },
  s3: async () => {
    // Each suite under a prefix of its own in the one bucket (the prefix is a setting of the store).
    const prefix = `suite-${Math.random().toString(36).slice(2, 8)}/`;
    const store = createMediaStore({ backend: createS3Backend(s3Config({ prefix })), secret: SECRET });
    return {
      store,
      listed: async (companyId) => (await s3.keys(`${prefix}${companyId}/`)).map((key) => key.slice(`${prefix}${companyId}/`.length)),
      stop: () => store.close(),
    };
  },
};

describe.each(['local', 's3'] as const)('the media store on %s', (kind) => {
  let b: Backend;
  let store: MediaStore;
  beforeAll(async () => {
    b = await backends[kind]();
    store = b.store;
    await store.check();
  });
  afterAll(async () => {
    await b?.stop();
  });

  it('saves bytes under a random name of its own and gives them back, whole and as a stream', async () => {
    const data = Buffer.from('\x89PNG\r\n\x1a\nsome image');
    const stored = await store.save(11, { data, mimetype: 'image/png; charset=binary', filename: '../../etc/foto.png' });
    expect(store.kind).toBe(kind);
    expect(stored).toMatchObject({ mediaName: 'foto.png', mimetype: 'image/png', size: data.length });
    expect(stored.fileName).toMatch(/^[\w-]{22}\.png$/);
    expect(await store.read(11, stored.fileName)).toEqual(data);
    const opened = await store.open(11, stored.fileName);
    expect(opened.size).toBe(data.length);
    expect(Buffer.concat(await opened.stream.toArray())).toEqual(data);
    expect(await store.exists(11, stored.fileName)).toBe(true);
    expect(await b.listed(11)).toEqual([stored.fileName]);
    // The extension comes from the type, else from a plain extension of the name, else .bin.
    expect((await store.save(11, { data, mimetype: 'application/x-thing', filename: 'notes.MD' })).fileName).toMatch(/\.md$/);
    expect((await store.save(11, { data, mimetype: 'application/x-thing', filename: 'x.p/hp' })).fileName).toMatch(/\.bin$/);
  });

  it('streams a large file in and out without holding it, its size counted', async () => {
    const total = 11 * MiB + 123;
    const { stream } = source(total);
    const stored = await store.saveStream(12, { stream, mimetype: 'video/mp4', filename: 'clip.mp4', maxBytes: 20 * MiB });
    expect(stored).toMatchObject({ mediaName: 'clip.mp4', mimetype: 'video/mp4', size: total });
    const opened = await store.open(12, stored.fileName);
    expect(opened.size).toBe(total);
    expect(await digestOf(opened.stream)).toBe(expectedDigest(total));
    expect(await b.listed(12)).toEqual([stored.fileName]);
  });

  it('refuses a stream past its limit, stops reading it and keeps nothing (within the first part and after it)', async () => {
    for (const [total, maxBytes] of [
      [3 * MiB, 1 * MiB],
      [40 * MiB, 9 * MiB],
    ]) {
      const { stream, state } = source(total);
      await expect(store.saveStream(13, { stream, mimetype: 'video/mp4', maxBytes })).rejects.toBeInstanceOf(MediaTooLargeError);
      expect(state.destroyed).toBe(true);
      // Cut off soon after the limit, not read to the end.
      expect(state.produced).toBeLessThan(maxBytes + 2 * MiB);
    }
    expect(await b.listed(13)).toEqual([]);
  });

  it('keeps nothing when the source fails midway, and says why', async () => {
    for (const failAt of [256 * 1024, 9 * MiB]) {
      const { stream } = source(20 * MiB, { failAt });
      await expect(store.saveStream(14, { stream, mimetype: 'application/pdf', maxBytes: 50 * MiB })).rejects.toThrow('connection reset');
    }
    expect(await b.listed(14)).toEqual([]);
  });

  it('answers a missing file with ERR_MEDIA_NOT_FOUND, and removing it is no error', async () => {
    const absent = 'AAAAAAAAAAAAAAAAAAAAAA.png';
    expect(await code(store.read(15, absent))).toBe('ERR_MEDIA_NOT_FOUND');
    expect(await code(store.open(15, absent))).toBe('ERR_MEDIA_NOT_FOUND');
    expect(await store.exists(15, absent)).toBe(false);
    await store.remove(15, absent);
    const stored = await store.save(15, { data: Buffer.from('x'), mimetype: 'text/plain' });
    await store.remove(15, stored.fileName);
    expect(await store.exists(15, stored.fileName)).toBe(false);
    expect(await code(store.read(15, stored.fileName))).toBe('ERR_MEDIA_NOT_FOUND');
  });

  it('takes no path and no company id but its own: traversal and odd ids are refused before the backend', async () => {
    const stored = await store.save(16, { data: Buffer.from('secret of 16'), mimetype: 'text/plain' });
    for (const name of [`../16/${stored.fileName}`, `16/${stored.fileName}`, '..', `${stored.fileName}.part`, `%2e%2e/${stored.fileName}`, '']) {
      expect(await code(store.read(17, name))).toBe('ERR_NOT_FOUND');
      expect(await code(store.exists(17, name))).toBe('ERR_NOT_FOUND');
      expect(await code(store.remove(17, name))).toBe('ERR_NOT_FOUND');
    }
    for (const companyId of [0, -16, 1.5, Number.NaN]) {
      expect(await code(store.read(companyId, stored.fileName))).toBe('ERR_NOT_FOUND');
      expect(await code(store.save(companyId, { data: Buffer.from('x'), mimetype: 'text/plain' }))).toBe('ERR_NOT_FOUND');
      expect(await code(store.removeCompany(companyId))).toBe('ERR_NOT_FOUND');
    }
    // Another company's file is not there for this one, whatever its name.
    expect(await code(store.read(17, stored.fileName))).toBe('ERR_MEDIA_NOT_FOUND');
    await store.remove(17, stored.fileName);
    expect(await store.read(16, stored.fileName)).toEqual(Buffer.from('secret of 16'));
  });

  it('removes every file of a deleted company and only those (company 2 is not company 21)', async () => {
    const saved = async (companyId: number, count: number) => {
      const names: string[] = [];
      for (let i = 0; i < count; i += 1) names.push((await store.save(companyId, { data: Buffer.from(`f${i}`), mimetype: 'text/plain' })).fileName);
      return names;
    };
    const doomed = await saved(2, 3);
    doomed.push((await store.saveStream(2, { stream: source(6 * MiB).stream, mimetype: 'video/mp4', maxBytes: 10 * MiB })).fileName);
    const kept = await saved(21, 2);
    await store.removeCompany(2);
    expect(await b.listed(2)).toEqual([]);
    for (const name of doomed) expect(await store.exists(2, name)).toBe(false);
    expect((await b.listed(21)).sort()).toEqual([...kept].sort());
    // A company with no files at all.
    await store.removeCompany(999);
  });

  it('signs URLs for one company and file, until they expire', async () => {
    const stored = await store.save(18, { data: Buffer.from('x'), mimetype: 'image/jpeg' });
    const url = store.url(18, stored.fileName)!;
    const { searchParams, pathname } = new URL(url, 'http://x');
    expect(pathname).toBe(`/media/18/${stored.fileName}`);
    const expires = searchParams.get('expires')!;
    const signature = searchParams.get('signature')!;
    expect(store.verify(18, stored.fileName, expires, signature)).toBe(true);
    expect(store.verify(19, stored.fileName, expires, signature)).toBe(false);
    expect(store.verify(18, stored.fileName, String(Number(expires) + 1), signature)).toBe(false);
    const past = new URL(store.url(18, stored.fileName, -10)!, 'http://x').searchParams;
    expect(store.verify(18, stored.fileName, past.get('expires')!, past.get('signature')!)).toBe(false);
    expect(store.url(18, null)).toBeNull();
    expect(store.url(18, '../x.png')).toBeNull();
  });
});

describe('the S3 backend', () => {
  it('keeps each store to its key prefix, so installs can share a bucket', async () => {
    const make = (prefix: string) => createMediaStore({ backend: createS3Backend(s3Config({ prefix })), secret: SECRET });
    const one = make('install-one/');
    const two = make('install-two/');
    const stored = await one.save(5, { data: Buffer.from('one'), mimetype: 'text/plain' });
    expect(await s3.keys('install-one/')).toEqual([`install-one/5/${stored.fileName}`]);
    expect(await two.exists(5, stored.fileName)).toBe(false);
    await two.save(5, { data: Buffer.from('two'), mimetype: 'text/plain' });
    await two.removeCompany(5);
    expect(await one.read(5, stored.fileName)).toEqual(Buffer.from('one'));
    await one.close();
    await two.close();
  });

  it('fails its start-up check for a bucket that does not exist', async () => {
    const store = createMediaStore({ backend: createS3Backend(s3Config({ bucket: 'no-such-bucket' })), secret: SECRET });
    await expect(store.check()).rejects.toThrow();
    await store.close();
  });
});
