import Router from '@koa/router';
import { updateSettingSchema } from '@atrium/shared';
import { z } from 'zod';
import { adminOnly } from '../../http/auth-middleware.js';
import type { RouteDeps } from '../../http/route-deps.js';
import type { AppState } from '../../http/types.js';
import { parse } from '../../http/validate.js';
import { listSettings, updateSetting } from './settings.service.js';

const keyParam = z.object({ key: z.string().min(1).max(100) });

export const settingsRoutes = (deps: RouteDeps) => {
  const router = new Router<AppState>({ prefix: '/settings' });

  router.get('/', deps.auth, async (ctx) => {
    ctx.body = await listSettings(ctx.state.service);
  });
  router.put('/:key', deps.auth, adminOnly, async (ctx) => {
    const { key } = parse(keyParam, ctx.params);
    const { value } = parse(updateSettingSchema, ctx.request.body);
    ctx.body = await updateSetting(ctx.state.service, key, value);
  });

  return router;
};
