import Router from '@koa/router';
import { sandboxAckSchema, sandboxInboundSchema } from '@atrium/shared';
import { z } from 'zod';
import { AppError } from '../../errors.js';
import { adminOnly } from '../../http/auth-middleware.js';
import type { RouteDeps } from '../../http/route-deps.js';
import type { AppContext, AppState } from '../../http/types.js';
import { parse } from '../../http/validate.js';
import { Whatsapp } from '../../modules/connections/whatsapp.entity.js';
import { SandboxOutbox } from './outbox.entity.js';
import { SandboxSession } from './sandbox.provider.js';

const params = z.object({ whatsappId: z.coerce.number().int().positive() });

type SandboxControls = Pick<SandboxSession, 'scan' | 'receive' | 'ack'>;

/**
 * The simulated phone's controls (enabled with CHANNEL_SANDBOX): scan its QR code, play a customer's
 * message or receipt, and read what the platform sent. For a company admin of the connection's company.
 */
export const sandboxRoutes = (deps: RouteDeps) => {
  const router = new Router<AppState>({ prefix: '/sandbox' });

  const connectionOf = async (ctx: AppContext) => {
    const { whatsappId } = parse(params, ctx.params);
    const connection = await ctx.state.em.findOne(Whatsapp, whatsappId);
    if (!connection) throw new AppError('ERR_NO_WAPP_FOUND');
    if (connection.provider !== 'sandbox') throw new AppError('ERR_WAPP_PROVIDER_DISABLED', { provider: connection.provider });
    return connection;
  };
  /** The phone's controls, played by the server process that runs the connection's session. */
  const sessionOf = async (ctx: AppContext): Promise<SandboxControls> => {
    // Every customer message passes here: the running session of one of the caller's company's
    // connections needs no database read. Anything else is looked up, for the precise error.
    const live = deps.channels.findOfCompany(parse(params, ctx.params).whatsappId, ctx.state.actor.companyId);
    if (live instanceof SandboxSession) return live;
    const connection = await connectionOf(ctx);
    const session = await deps.channels.reach(connection);
    if (!session) throw new AppError('ERR_WAPP_NOT_INITIALIZED');
    return {
      scan: () => session.command('scan'),
      receive: (input) => session.command('receive', input),
      ack: (id, ack) => session.command('ack', id, ack),
    };
  };

  router.post('/:whatsappId/scan', deps.auth, adminOnly, async (ctx) => {
    ctx.body = await (await sessionOf(ctx)).scan();
  });
  router.post('/:whatsappId/messages', deps.auth, adminOnly, async (ctx) => {
    const input = parse(sandboxInboundSchema, ctx.request.body);
    const session = await sessionOf(ctx);
    ctx.status = 201;
    ctx.body = await session.receive({
      from: input.from,
      name: input.name,
      body: input.body,
      id: input.id,
      quotedId: input.quotedId,
      replyId: input.replyId,
      media: input.media && {
        mimetype: input.media.mimetype,
        filename: input.media.filename,
        data: Buffer.from(input.media.base64, 'base64'),
      },
    });
  });
  router.post('/:whatsappId/ack', deps.auth, adminOnly, async (ctx) => {
    const input = parse(sandboxAckSchema, ctx.request.body);
    await (await sessionOf(ctx)).ack(input.id, input.ack);
    ctx.body = { ok: true };
  });
  router.get('/:whatsappId/outbox', deps.auth, adminOnly, async (ctx) => {
    const connection = await connectionOf(ctx);
    const rows = await ctx.state.em.find(SandboxOutbox, { whatsappId: connection.id }, { orderBy: { id: 'asc' } });
    ctx.body = {
      messages: rows.map((r) => ({
        id: r.wid,
        to: r.to,
        body: r.body,
        ...(r.mediaType ? { mediaType: r.mediaType, mediaName: r.mediaName } : {}),
        ...(r.quotedId ? { quotedId: r.quotedId } : {}),
        ...(r.deleted ? { deleted: true } : {}),
        ...(r.deliveries > 1 ? { deliveries: r.deliveries } : {}),
        at: r.createdAt,
      })),
    };
  });

  return router;
};
