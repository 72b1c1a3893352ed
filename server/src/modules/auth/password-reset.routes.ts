import Router from '@koa/router';
import { forgotPasswordParamsSchema, resetPasswordSchema } from '@atrium/shared';
import type { RouteDeps } from '../../http/route-deps.js';
import type { AppState } from '../../http/types.js';
import { parse } from '../../http/validate.js';
import { createMailer } from '../../mail/mailer.js';
import { requestPasswordReset, resetPassword } from './password-reset.js';

/**
 * Password reset (spec 02 section 7, spec 04 section 13): public calls. The contract's
 * POST /resetpasswords/{email}/{token}/{newPassword} stays for older clients (its path is never logged,
 * see http/error-middleware.ts); our screen sends the same values as a JSON body to POST /resetpasswords.
 */
export const passwordResetRoutes = (deps: RouteDeps) => {
  const router = new Router<AppState>();
  const mailer = createMailer(deps.config.mail);
  if (!mailer.enabled) deps.logger.warn('password reset e-mail is off: set SMTP_HOST and SMTP_FROM to send reset codes');
  const serviceDeps = () => ({ em: deps.systemEm(), config: deps.config, events: deps.events, mailer, logger: deps.logger });

  /** Whether the reset screen can send codes at all. */
  router.get('/forgetpassword', (ctx) => {
    ctx.body = { emailEnabled: mailer.enabled };
  });
  router.post('/forgetpassword/:email', async (ctx) => {
    const { email } = parse(forgotPasswordParamsSchema, ctx.params);
    const { emailEnabled } = await requestPasswordReset(serviceDeps(), email, ctx.ip);
    ctx.body = { message: 'If this address has an account, a code was sent to it.', emailEnabled };
  });
  router.post('/resetpasswords', async (ctx) => {
    await resetPassword(serviceDeps(), parse(resetPasswordSchema, ctx.request.body), ctx.ip);
    ctx.body = { message: 'Password updated' };
  });
  router.post('/resetpasswords/:email/:token/:newPassword', async (ctx) => {
    const { email, token, newPassword } = ctx.params;
    await resetPassword(serviceDeps(), parse(resetPasswordSchema, { email, token, newPassword }), ctx.ip);
    ctx.body = { message: 'Password updated' };
  });

  return router;
};
