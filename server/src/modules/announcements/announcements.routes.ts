import Router from '@koa/router';
import {
  ANNOUNCEMENT_MEDIA_MAX_BYTES,
  ANNOUNCEMENT_MEDIA_TYPES,
  createAnnouncementSchema,
  idParamSchema,
  listAnnouncementsQuerySchema,
  updateAnnouncementSchema,
} from '@atrium/shared';
import { superOnly } from '../../http/auth-middleware.js';
import type { RouteDeps } from '../../http/route-deps.js';
import type { AppState } from '../../http/types.js';
import { mediaOf, requiredFile, upload } from '../../http/upload.js';
import { parse } from '../../http/validate.js';
import {
  attachAnnouncementMedia,
  createAnnouncement,
  deleteAnnouncement,
  getAnnouncement,
  listActiveAnnouncements,
  listAnnouncements,
  removeAnnouncementMedia,
  updateAnnouncement,
} from './announcements.service.js';

/** Announcements (spec 02 section 7): everyone reads the active ones, super users write. */
export const announcementsRoutes = (deps: RouteDeps) => {
  const router = new Router<AppState>({ prefix: '/announcements' });
  const aDeps = { media: deps.media };

  router.get('/', deps.auth, async (ctx) => {
    ctx.body = await listAnnouncements(ctx.state.service, aDeps, parse(listAnnouncementsQuerySchema, ctx.query));
  });
  router.get('/list', deps.auth, async (ctx) => {
    ctx.body = await listActiveAnnouncements(ctx.state.service, aDeps);
  });
  router.get('/:id', deps.auth, async (ctx) => {
    ctx.body = await getAnnouncement(ctx.state.service, aDeps, parse(idParamSchema, ctx.params).id);
  });
  router.post('/', deps.auth, superOnly, async (ctx) => {
    ctx.status = 201;
    ctx.body = await createAnnouncement(ctx.state.service, aDeps, parse(createAnnouncementSchema, ctx.request.body));
  });
  router.put('/:id', deps.auth, superOnly, async (ctx) => {
    const { id } = parse(idParamSchema, ctx.params);
    ctx.body = await updateAnnouncement(ctx.state.service, aDeps, id, parse(updateAnnouncementSchema, ctx.request.body));
  });
  router.delete('/:id', deps.auth, superOnly, async (ctx) => {
    await deleteAnnouncement(ctx.state.service, aDeps, parse(idParamSchema, ctx.params).id);
    ctx.body = { message: 'Announcement deleted' };
  });
  // superOnly before the upload: a refused caller's file is never read into memory.
  router.post(
    '/:id/media-upload',
    deps.auth,
    superOnly,
    upload({ fields: ['file'], maxFiles: 1, maxBytes: ANNOUNCEMENT_MEDIA_MAX_BYTES, accept: [...ANNOUNCEMENT_MEDIA_TYPES] }),
    async (ctx) => {
      const { id } = parse(idParamSchema, ctx.params);
      ctx.body = await attachAnnouncementMedia(ctx.state.service, aDeps, id, mediaOf(requiredFile(ctx, 'file')));
    },
  );
  router.delete('/:id/media-upload', deps.auth, superOnly, async (ctx) => {
    ctx.body = await removeAnnouncementMedia(ctx.state.service, aDeps, parse(idParamSchema, ctx.params).id);
  });

  return router;
};
