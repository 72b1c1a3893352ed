import Router from '@koa/router';
import {
  QUICK_MESSAGE_MEDIA_MAX_BYTES,
  QUICK_MESSAGE_MEDIA_TYPES,
  createQuickMessageSchema,
  idParamSchema,
  listQuickMessagesQuerySchema,
  updateQuickMessageSchema,
} from '@atrium/shared';
import { z } from 'zod';
import type { RouteDeps } from '../../http/route-deps.js';
import type { AppState } from '../../http/types.js';
import { formFields, mediaOf, requiredFile, upload } from '../../http/upload.js';
import { parse } from '../../http/validate.js';
import {
  attachQuickMessageMedia,
  createQuickMessage,
  deleteQuickMessage,
  getQuickMessage,
  listAllQuickMessages,
  listQuickMessages,
  removeQuickMessageMedia,
  updateQuickMessage,
} from './quick-messages.service.js';

/** The client names the attachment's kind in `typeArch`; the stored MIME type is what counts. */
const mediaForm = z.object({ typeArch: z.string().max(50).optional() });

export const quickMessagesRoutes = (deps: RouteDeps) => {
  const router = new Router<AppState>({ prefix: '/quick-messages' });
  const qmDeps = { media: deps.media };

  router.get('/', deps.auth, async (ctx) => {
    ctx.body = await listQuickMessages(ctx.state.service, qmDeps, parse(listQuickMessagesQuerySchema, ctx.query));
  });
  router.get('/list', deps.auth, async (ctx) => {
    ctx.body = await listAllQuickMessages(ctx.state.service, qmDeps);
  });
  router.get('/:id', deps.auth, async (ctx) => {
    ctx.body = await getQuickMessage(ctx.state.service, qmDeps, parse(idParamSchema, ctx.params).id);
  });
  router.post('/', deps.auth, async (ctx) => {
    ctx.status = 201;
    ctx.body = await createQuickMessage(ctx.state.service, qmDeps, parse(createQuickMessageSchema, ctx.request.body));
  });
  router.put('/:id', deps.auth, async (ctx) => {
    const { id } = parse(idParamSchema, ctx.params);
    ctx.body = await updateQuickMessage(ctx.state.service, qmDeps, id, parse(updateQuickMessageSchema, ctx.request.body));
  });
  router.delete('/:id', deps.auth, async (ctx) => {
    await deleteQuickMessage(ctx.state.service, qmDeps, parse(idParamSchema, ctx.params).id);
    ctx.body = { message: 'Quick message deleted' };
  });
  router.post(
    '/:id/media-upload',
    deps.auth,
    upload({ fields: ['file'], maxFiles: 1, maxBytes: QUICK_MESSAGE_MEDIA_MAX_BYTES, accept: [...QUICK_MESSAGE_MEDIA_TYPES] }),
    async (ctx) => {
      const { id } = parse(idParamSchema, ctx.params);
      parse(mediaForm, formFields(ctx));
      ctx.body = await attachQuickMessageMedia(ctx.state.service, qmDeps, id, mediaOf(requiredFile(ctx, 'file')));
    },
  );
  router.delete('/:id/media-upload', deps.auth, async (ctx) => {
    ctx.body = await removeQuickMessageMedia(ctx.state.service, qmDeps, parse(idParamSchema, ctx.params).id);
  });

  return router;
};
