import path from 'node:path';
import Router from '@koa/router';
import { idSchema } from '@atrium/shared';
import { z } from 'zod';
import { AppError } from '../errors.js';
import type { RouteDeps } from '../http/route-deps.js';
import type { AppState } from '../http/types.js';
import { parse } from '../http/validate.js';

const INLINE: Record<string, string> = {
  jpg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  ogg: 'audio/ogg',
  mp3: 'audio/mpeg',
  m4a: 'audio/mp4',
  aac: 'audio/aac',
  wav: 'audio/wav',
  webm: 'video/webm',
  mp4: 'video/mp4',
  '3gp': 'video/3gpp',
  pdf: 'application/pdf',
};

const params = z.object({ companyId: idSchema, file: z.string().max(100) });
const query = z.object({ expires: z.string().max(20), signature: z.string().max(100) });

/**
 * GET /media/{companyId}/{file}?expires&signature: a stored file, for a URL the API minted for an
 * authenticated user of that company, whichever backend keeps it. Anything that is not plain media is
 * sent as a download.
 */
export const mediaRoutes = (deps: RouteDeps) => {
  const router = new Router<AppState>();
  router.get('/media/:companyId/:file', async (ctx) => {
    const { companyId, file } = parse(params, ctx.params);
    const { expires, signature } = parse(query, ctx.query);
    if (!deps.media.verify(companyId, file, expires, signature)) throw new AppError('ERR_NO_PERMISSION');
    // Streamed from the store (a local file or a private bucket's object), never whole in memory.
    const { stream, size } = await deps.media.open(companyId, file).catch((err: unknown) => {
      if (err instanceof AppError) throw new AppError('ERR_NOT_FOUND');
      throw err;
    });
    const ext = path.extname(file).slice(1);
    const type = INLINE[ext];
    ctx.type = type ?? 'application/octet-stream';
    ctx.set('Content-Security-Policy', "default-src 'none'; sandbox");
    ctx.set('Cache-Control', 'private, max-age=3600');
    if (!type) ctx.attachment(file);
    ctx.body = stream;
    ctx.length = size;
  });
  return router;
};
