import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { encryptedStream } from '@whiskeysockets/baileys';

/** A file as WhatsApp's media servers hold it: encrypted, answered with `status` (an error) or held back until `held`. */
export interface MediaFile {
  encrypted: Buffer;
  status?: number;
  held?: Promise<void>;
}

/**
 * WhatsApp's media servers, played by a local HTTP server: it serves encrypted files (made by Baileys' own
 * encryptedStream) that the real download path (downloadMediaMessage) fetches and decrypts. An unknown
 * file answers 500. `requests` lists the files asked for, in order.
 */
export const startMediaServer = async () => {
  const files = new Map<string, MediaFile>();
  const requests: string[] = [];
  const server = createServer((req, res) => {
    const name = (req.url ?? '').replace(/^\//, '').replace(/\.enc$/, '');
    requests.push(name);
    const file = files.get(name);
    if (!file) {
      res.statusCode = 500;
      res.end();
      return;
    }
    void (file.held ?? Promise.resolve()).then(() => {
      res.statusCode = file.status ?? 200;
      res.end(file.status ? undefined : file.encrypted);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    files,
    requests,
    base,
    /** Stores an image under `name` and answers the message field a real image carries: where, its key, its size. */
    async image(name: string, plain: Buffer, options: { status?: number; held?: Promise<void>; announcedLength?: number } = {}) {
      const enc = await encryptedStream(plain, 'image');
      files.set(name, { encrypted: await readFile(enc.encFilePath), status: options.status, held: options.held });
      return {
        url: `${base}/${name}.enc`,
        mimetype: 'image/jpeg',
        mediaKey: enc.mediaKey,
        fileSha256: enc.fileSha256,
        fileEncSha256: enc.fileEncSha256,
        fileLength: options.announcedLength ?? enc.fileLength,
      };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};

export type MediaServer = Awaited<ReturnType<typeof startMediaServer>>;
