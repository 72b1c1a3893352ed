import Router from '@koa/router';
import {
  SCHEDULE_MEDIA_MAX_BYTES,
  SCHEDULE_MEDIA_TYPES,
  createScheduleSchema,
  idParamSchema,
  listSchedulesQuerySchema,
  updateScheduleSchema,
} from '@atrium/shared';
import type { RouteDeps } from '../../http/route-deps.js';
import type { AppState } from '../../http/types.js';
import { mediaOf, requiredFile, upload } from '../../http/upload.js';
import { parse } from '../../http/validate.js';
import {
  attachScheduleMedia,
  createSchedule,
  deleteSchedule,
  getSchedule,
  listSchedules,
  removeScheduleMedia,
  updateSchedule,
} from './schedules.service.js';

/** Scheduled messages (spec 01 section 7, spec 02 section 7). */
export const schedulesRoutes = (deps: RouteDeps) => {
  const router = new Router<AppState>({ prefix: '/schedules' });
  const scheduleDeps = { media: deps.media, scheduler: deps.scheduler, logger: deps.logger };

  router.get('/', deps.auth, async (ctx) => {
    ctx.body = await listSchedules(ctx.state.service, scheduleDeps, parse(listSchedulesQuerySchema, ctx.query));
  });
  router.get('/:id', deps.auth, async (ctx) => {
    ctx.body = await getSchedule(ctx.state.service, scheduleDeps, parse(idParamSchema, ctx.params).id);
  });
  router.post('/', deps.auth, async (ctx) => {
    ctx.status = 201;
    ctx.body = await createSchedule(ctx.state.service, scheduleDeps, parse(createScheduleSchema, ctx.request.body));
  });
  router.put('/:id', deps.auth, async (ctx) => {
    const { id } = parse(idParamSchema, ctx.params);
    ctx.body = await updateSchedule(ctx.state.service, scheduleDeps, id, parse(updateScheduleSchema, ctx.request.body));
  });
  router.delete('/:id', deps.auth, async (ctx) => {
    await deleteSchedule(ctx.state.service, scheduleDeps, parse(idParamSchema, ctx.params).id);
    ctx.body = { message: 'Schedule deleted' };
  });
  router.post(
    '/:id/media-upload',
    deps.auth,
    upload({ fields: ['file'], maxFiles: 1, maxBytes: SCHEDULE_MEDIA_MAX_BYTES, accept: [...SCHEDULE_MEDIA_TYPES] }),
    async (ctx) => {
      const { id } = parse(idParamSchema, ctx.params);
      ctx.body = await attachScheduleMedia(ctx.state.service, scheduleDeps, id, mediaOf(requiredFile(ctx, 'file')));
    },
  );
  router.delete('/:id/media-upload', deps.auth, async (ctx) => {
    ctx.body = await removeScheduleMedia(ctx.state.service, scheduleDeps, parse(idParamSchema, ctx.params).id);
  });

  return router;
};
