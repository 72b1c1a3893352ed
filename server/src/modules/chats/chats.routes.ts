import Router from '@koa/router';
import {
  CHAT_MEDIA_MAX_BYTES,
  CHAT_MEDIA_TYPES,
  chatParamSchema,
  createChatSchema,
  listChatMessagesQuerySchema,
  listChatsQuerySchema,
  sendChatMessageSchema,
  updateChatSchema,
} from '@atrium/shared';
import type Koa from 'koa';
import type { RouteDeps } from '../../http/route-deps.js';
import type { AppState } from '../../http/types.js';
import { formFields, mediaOf, upload, uploadedFiles } from '../../http/upload.js';
import { parse } from '../../http/validate.js';
import { AppError } from '../../errors.js';
import { assertPlanFeature } from '../plans/index.js';
import {
  createChat,
  deleteChat,
  getChat,
  listChatMessages,
  listChats,
  markChatRead,
  sendChatMessage,
  updateChat,
} from './chats.service.js';

/** Internal chat (spec 02 section 7), with the participant and owner rules of spec 04 section 6's note. */
export const chatsRoutes = (deps: RouteDeps) => {
  const router = new Router<AppState>({ prefix: '/chats' });
  const chatDeps = { media: deps.media };
  /** The plan's useInternalChat flag, enforced here and not only in the menu. */
  const planned: Koa.Middleware<AppState> = async (ctx, next) => {
    await assertPlanFeature(ctx.state.em, ctx.state.actor.companyId, 'useInternalChat');
    await next();
  };
  const chatOf = (params: unknown) => parse(chatParamSchema, params).id;

  router.get('/', deps.auth, planned, async (ctx) => {
    ctx.body = await listChats(ctx.state.service, parse(listChatsQuerySchema, ctx.query));
  });
  router.get('/:id', deps.auth, planned, async (ctx) => {
    ctx.body = await getChat(ctx.state.service, chatOf(ctx.params));
  });
  router.post('/', deps.auth, planned, async (ctx) => {
    ctx.status = 201;
    ctx.body = await createChat(ctx.state.service, parse(createChatSchema, ctx.request.body));
  });
  router.put('/:id', deps.auth, planned, async (ctx) => {
    const id = chatOf(ctx.params);
    ctx.body = await updateChat(ctx.state.service, id, parse(updateChatSchema, ctx.request.body));
  });
  router.delete('/:id', deps.auth, planned, async (ctx) => {
    await deleteChat(ctx.state.service, chatDeps, chatOf(ctx.params));
    ctx.body = { message: 'Chat deleted' };
  });
  // The body's userId (the original's) is ignored: the caller is who has read.
  router.post('/:id/read', deps.auth, planned, async (ctx) => {
    ctx.body = await markChatRead(ctx.state.service, chatOf(ctx.params));
  });
  router.get('/:id/messages', deps.auth, planned, async (ctx) => {
    const id = chatOf(ctx.params);
    ctx.body = await listChatMessages(ctx.state.service, chatDeps, id, parse(listChatMessagesQuerySchema, ctx.query));
  });
  router.post(
    '/:id/messages',
    deps.auth,
    planned,
    async (ctx, next) => {
      // JSON text, or multipart: one file in `medias` with an optional `message`.
      if (!ctx.is('multipart')) {
        const id = chatOf(ctx.params);
        ctx.status = 201;
        ctx.body = await sendChatMessage(ctx.state.service, chatDeps, id, parse(sendChatMessageSchema, ctx.request.body ?? {}));
        return;
      }
      await next();
    },
    upload({ fields: ['medias'], maxFiles: 1, maxBytes: CHAT_MEDIA_MAX_BYTES, accept: [...CHAT_MEDIA_TYPES] }),
    async (ctx) => {
      const id = chatOf(ctx.params);
      const input = parse(sendChatMessageSchema, formFields(ctx));
      const [file] = uploadedFiles(ctx, 'medias');
      if (!file) throw new AppError('ERR_VALIDATION', { fields: [{ path: 'medias', message: 'required' }] });
      ctx.status = 201;
      ctx.body = await sendChatMessage(ctx.state.service, chatDeps, id, input, mediaOf(file));
    },
  );

  return router;
};
