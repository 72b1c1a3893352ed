import { createWriteStream } from 'node:fs';
import { mkdir, open, rename, rm, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { MediaBackend } from './storage.js';

const missing = (err: unknown) => (err as NodeJS.ErrnoException).code === 'ENOENT';

/**
 * Media in a directory: `{dir}/{companyId}/{fileName}`. One process by default (DATA_DIR/media); a volume
 * shared by several processes on one host (MEDIA_DIR) works the same, since a file appears only whole (a
 * rename) and names are random.
 */
export const createLocalBackend = (options: { dir: string }): MediaBackend => {
  const root = path.resolve(options.dir);
  const dirOf = (companyId: number) => path.join(root, String(companyId));
  const fileOf = (companyId: number, fileName: string) => path.join(dirOf(companyId), fileName);

  return {
    kind: 'local',
    async write(companyId, fileName, body) {
      await mkdir(dirOf(companyId), { recursive: true });
      const target = fileOf(companyId, fileName);
      // Written under a name the media routes never serve, then renamed once complete.
      const partial = `${target}.part`;
      try {
        if (Buffer.isBuffer(body)) await writeFile(partial, body, { flag: 'wx' });
        else await pipeline(body, createWriteStream(partial, { flags: 'wx' }));
        await rename(partial, target);
      } catch (err) {
        await unlink(partial).catch(() => undefined);
        throw err;
      }
    },
    async open(companyId, fileName) {
      // Opened first, so the size and the bytes are those of one file even if it is removed meanwhile.
      const handle = await open(fileOf(companyId, fileName), 'r').catch((err: unknown) => {
        if (missing(err)) return null;
        throw err;
      });
      if (!handle) return null;
      try {
        const info = await handle.stat();
        if (!info.isFile()) {
          await handle.close();
          return null;
        }
        return { stream: handle.createReadStream(), size: info.size };
      } catch (err) {
        await handle.close().catch(() => undefined);
        throw err;
      }
    },
    async exists(companyId, fileName) {
      return stat(fileOf(companyId, fileName)).then(
        (s) => s.isFile(),
        () => false,
      );
    },
    async remove(companyId, fileName) {
      await unlink(fileOf(companyId, fileName)).catch((err: unknown) => {
        if (!missing(err)) throw err;
      });
    },
    async removeCompany(companyId) {
      await rm(dirOf(companyId), { recursive: true, force: true });
    },
    async check() {
      await mkdir(root, { recursive: true });
    },
    async close() {},
  };
};
