import type Koa from 'koa';
import { AppError } from '../errors.js';
import type { Logger } from '../logger.js';

/**
 * The only place errors become responses: `{"error": CODE, ...}` with the catalogue's status.
 * Unknown failures answer 500 without details and are logged with the request's route, never its body.
 */
/** The contract's reset call carries the new password in its path: such a path is logged by its route only. */
export const loggablePath = (path: string): string => (/^\/resetpasswords\//i.test(path) ? '/resetpasswords/[redacted]' : path);

export const errorMiddleware =
  (logger: Logger): Koa.Middleware =>
  async (ctx, next) => {
    try {
      await next();
    } catch (err) {
      const { status, body } = toResponse(err);
      if (status >= 500) logger.error({ err, method: ctx.method, path: loggablePath(ctx.path) }, 'request failed');
      ctx.status = status;
      ctx.body = body;
      if (body.error === 'ERR_TOO_MANY_REQUESTS' && typeof body.retryAfter === 'number') {
        ctx.set('Retry-After', String(body.retryAfter));
      }
    }
  };

const toResponse = (err: unknown): { status: number; body: Record<string, unknown> } => {
  if (err instanceof AppError) return { status: err.status, body: { error: err.code, ...err.extra } };
  const e = err as { type?: string; status?: number; code?: string; expose?: boolean };
  // Body parser failures (co-body and raw-body mark them with a client status).
  if (e?.status === 413 || e?.type === 'entity.too.large') return { status: 413, body: { error: 'ERR_PAYLOAD_TOO_LARGE' } };
  if (e?.status === 415) return { status: 415, body: { error: 'ERR_UNSUPPORTED_MEDIA_TYPE' } };
  if (e?.status === 400 && (e instanceof SyntaxError || e.type === 'entity.parse.failed')) return { status: 400, body: { error: 'ERR_INVALID_JSON' } };
  // A unique index caught a race a check in code did not.
  if (e?.code === '23505') return { status: 409, body: { error: 'ERR_CONFLICT' } };
  return { status: 500, body: { error: 'ERR_INTERNAL_SERVER_ERROR' } };
};
