import Router from '@koa/router';
import { idParamSchema, idSchema, listMessagesQuerySchema, sendMessageSchema, textSchema } from '@atrium/shared';
import { z } from 'zod';
import type { RouteDeps } from '../../http/route-deps.js';
import type { AppState } from '../../http/types.js';
import { formFields, mediaOf, upload, uploadedFiles } from '../../http/upload.js';
import { parse } from '../../http/validate.js';
import { deleteMessage, listMessages, refetchMessageMedia, resendMessage, sendMediaMessages, sendTextMessage } from './messages.service.js';
import { asVoiceNote } from '../outbox/index.js';

const ticketParam = z.object({ ticketId: idSchema });
const MAX_MEDIA_BYTES = 64 * 1024 * 1024;

/** Multipart fields: `medias` (files), `body` (one caption, or one per file), optional `quotedMsgId`, `signMessage`. */
const mediaForm = z.object({
  body: z.union([textSchema.max(4096), z.array(textSchema.max(4096))]).optional(),
  quotedMsgId: idSchema.optional(),
  signMessage: z.enum(['true', 'false']).optional(),
  voiceNote: z.enum(['true', 'false']).optional(),
});

export const messagesRoutes = (deps: RouteDeps) => {
  const router = new Router<AppState>({ prefix: '/messages' });
  const conversation = { channels: deps.channels, media: deps.media, events: deps.events };

  router.get('/:ticketId', deps.auth, async (ctx) => {
    const { ticketId } = parse(ticketParam, ctx.params);
    const { pageNumber } = parse(listMessagesQuerySchema, ctx.query);
    ctx.body = await listMessages(ctx.state.service, conversation, ticketId, pageNumber);
  });

  router.post(
    '/:ticketId',
    deps.auth,
    async (ctx, next) => {
      // JSON text, or multipart media.
      if (!ctx.is('multipart')) {
        const { ticketId } = parse(ticketParam, ctx.params);
        ctx.body = await sendTextMessage(ctx.state.service, conversation, ticketId, parse(sendMessageSchema, ctx.request.body));
        return;
      }
      await next();
    },
    upload({ fields: ['medias'], maxFiles: 10, maxBytes: MAX_MEDIA_BYTES }),
    async (ctx) => {
      const { ticketId } = parse(ticketParam, ctx.params);
      const form = parse(mediaForm, formFields(ctx));
      const files = uploadedFiles(ctx, 'medias');
      const captions: string[] = Array.isArray(form.body) ? form.body : files.map(() => (form.body as string | undefined) ?? '');
      // A voice note is converted here, before anything is stored or queued (and outside any transaction).
      const prepared = [];
      for (const [i, f] of files.entries()) {
        prepared.push(await asVoiceNote({ ...mediaOf(f), caption: captions[i] ?? '', voiceNote: form.voiceNote === 'true' }));
      }
      ctx.body = await sendMediaMessages(ctx.state.service, conversation, ticketId, prepared, {
        signMessage: form.signMessage === 'true',
        quotedMsgId: form.quotedMsgId,
      });
    },
  );

  router.post('/:id/resend', deps.auth, async (ctx) => {
    ctx.body = await resendMessage(ctx.state.service, conversation, parse(idParamSchema, ctx.params).id);
  });

  // A received file whose download failed is fetched again (the answer shows it pending).
  router.post('/:id/media', deps.auth, async (ctx) => {
    ctx.body = await refetchMessageMedia(ctx.state.service, conversation, parse(idParamSchema, ctx.params).id);
  });

  router.delete('/:id', deps.auth, async (ctx) => {
    ctx.body = await deleteMessage(ctx.state.service, conversation, parse(idParamSchema, ctx.params).id);
  });

  return router;
};
