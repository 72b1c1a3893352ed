import Router from '@koa/router';
import {
  API_MEDIA_MAX_BYTES,
  API_MEDIA_MAX_FILES,
  API_MEDIA_TYPES,
  apiMessageIdParamSchema,
  apiSendMediaFieldsSchema,
  apiSendTextSchema,
  idempotencyKeySchema,
} from '@atrium/shared';
import type Koa from 'koa';
import { bearerToken } from '../../http/auth-middleware.js';
import type { RouteDeps } from '../../http/route-deps.js';
import type { AppState } from '../../http/types.js';
import { formFields, mediaOf, upload, uploadedFiles } from '../../http/upload.js';
import { parse } from '../../http/validate.js';
import { AppError } from '../../errors.js';
import { openApiDocument } from './openapi.js';
import { authenticateApiToken, messageStatus, sendThroughApi, type ApiCall, type ApiCaller, type ApiSendInput } from './messages-api.service.js';

type ApiState = AppState & { apiCaller: ApiCaller };

/** The Idempotency-Key header, when sent (400 when it is not a usable key). */
const idempotencyKeyOf = (ctx: Koa.Context): string | undefined => {
  const header = ctx.get('idempotency-key');
  if (!header) return undefined;
  try {
    return parse(idempotencyKeySchema, header);
  } catch {
    throw new AppError('ERR_VALIDATION', { fields: [{ path: 'Idempotency-Key', message: 'not a usable key' }] });
  }
};

/**
 * The external messages API (spec 04 section 14): authenticated by a connection's token, not by a user's
 * session, and documented at GET /api/openapi.json.
 */
export const messagesApiRoutes = (deps: RouteDeps) => {
  const router = new Router<ApiState>({ prefix: '/api' });
  const limits = { send: deps.config.apiSendMaxPerMinute, status: deps.config.apiStatusMaxPerMinute };
  const apiDeps = { channels: deps.channels, media: deps.media, events: deps.events, logger: deps.logger };

  const apiAuth =
    (call: ApiCall): Koa.Middleware<ApiState> =>
    async (ctx, next) => {
      const { caller, rate } = await authenticateApiToken(deps.systemEm(), limits, bearerToken(ctx.get('authorization')), call);
      ctx.set('X-RateLimit-Limit', String(rate.limit));
      ctx.set('X-RateLimit-Remaining', String(rate.remaining));
      ctx.set('X-RateLimit-Reset', String(Math.max(0, Math.ceil((rate.resetAt.getTime() - Date.now()) / 1000))));
      ctx.state.apiCaller = caller;
      await next();
    };

  const answer = async (ctx: Koa.ParameterizedContext<ApiState>, input: ApiSendInput) => {
    const result = await sendThroughApi(apiDeps, ctx.state.apiCaller, input, idempotencyKeyOf(ctx));
    if (result.replayed) ctx.set('Idempotent-Replayed', 'true');
    ctx.status = result.statusCode;
    ctx.body = result.body;
  };

  // The document is public: it describes the calls, never a company's data.
  router.get('/openapi.json', (ctx) => {
    ctx.set('Cache-Control', 'no-cache');
    ctx.body = openApiDocument();
  });

  router.post(
    '/messages/send',
    apiAuth('send'),
    async (ctx, next) => {
      // JSON text, or multipart files.
      if (ctx.is('multipart')) return next();
      const input = parse(apiSendTextSchema, ctx.request.body);
      await answer(ctx, { ...input, files: [] });
    },
    upload({ fields: ['medias'], maxFiles: API_MEDIA_MAX_FILES, maxBytes: API_MEDIA_MAX_BYTES, accept: [...API_MEDIA_TYPES] }),
    async (ctx) => {
      const fields = parse(apiSendMediaFieldsSchema, formFields(ctx));
      const files = uploadedFiles(ctx, 'medias');
      if (files.length === 0) throw new AppError('ERR_VALIDATION', { fields: [{ path: 'medias', message: 'required' }] });
      await answer(ctx, { ...fields, files: files.map(mediaOf) });
    },
  );

  router.get('/messages/:id', apiAuth('status'), async (ctx) => {
    ctx.body = await messageStatus(ctx.state.apiCaller, parse(apiMessageIdParamSchema, ctx.params).id);
  });

  return router as unknown as Router<AppState>;
};
