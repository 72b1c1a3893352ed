import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Router from '@koa/router';
import type { MikroORM } from '@mikro-orm/postgresql';
import { keptSecret, type Config } from './config.js';
import { startEmbeddedPostgres, type EmbeddedDatabase } from './db/embedded.js';
import { initOrm } from './db/orm.js';
import { seedFirstStart } from './db/seed.js';
import { forSystem } from './db/tenant.js';
import { EventBus } from './events/bus.js';
import { authMiddleware } from './http/auth-middleware.js';
import type { RouteDeps } from './http/route-deps.js';
import type { AppState } from './http/types.js';
import { buildHttpApp } from './http/server.js';
import { createScheduler, JobRegistry, type Scheduler } from './jobs/scheduler.js';
import { createLogger, type Logger } from './logger.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { authenticate } from './modules/auth/auth.service.js';
import { companiesRoutes } from './modules/companies/companies.routes.js';
import { helpsRoutes } from './modules/helps/helps.routes.js';
import { plansRoutes } from './modules/plans/plans.routes.js';
import { settingsRoutes } from './modules/settings/settings.routes.js';
import { backfillDefaultSettings } from './modules/settings/settings.service.js';
import { createPresence, registerPresenceJobs } from './modules/users/presence.js';
import { usersRoutes } from './modules/users/users.routes.js';
import { registerRealtimeListeners } from './realtime/listeners.js';
import { createRealtime, type Realtime } from './realtime/server.js';
import { createSessionCheck } from './realtime/sessions.js';
import { registerConversationListeners } from './realtime/conversation-listeners.js';
import { createAuthStore } from './channels/auth-store.js';
import { createBaileysProvider } from './channels/baileys/index.js';
import { ChannelManager } from './channels/manager.js';
import { startAllSessions } from './channels/boot.js';
import { sandboxRoutes } from './channels/sandbox/sandbox.routes.js';
import { createSandboxProvider } from './channels/sandbox/sandbox.provider.js';
import type { ChannelProvider } from './channels/types.js';
import { mediaRoutes } from './media/media.routes.js';
import { createMediaStore, type MediaStore } from './media/storage.js';
import { connectionsRoutes } from './modules/connections/connections.routes.js';
import { sessionEvents } from './modules/connections/session-events.js';
import { messagesRoutes } from './modules/messages/messages.routes.js';
import { contactsRoutes } from './modules/contacts/contacts.routes.js';
import { queuesRoutes } from './modules/queues/queues.routes.js';
import { tagsRoutes } from './modules/tags/tags.routes.js';
import { ticketNotesRoutes } from './modules/ticket-notes/ticket-notes.routes.js';
import { quickMessagesRoutes } from './modules/quick-messages/quick-messages.routes.js';
import { queueOptionsRoutes } from './modules/queue-options/queue-options.routes.js';
import { createQueueChatbot } from './modules/chatbot/chatbot.js';
import { registerChatbotJobs } from './modules/chatbot/sweeps.js';
import { billingRoutes } from './modules/billing/billing.routes.js';
import { registerBillingJobs, registerBillingListeners, startBillingJobs } from './modules/billing/billing.jobs.js';
import { schedulesRoutes } from './modules/schedules/schedules.routes.js';
import { registerScheduleJobs } from './modules/schedules/schedules.sender.js';
import { announcementsRoutes } from './modules/announcements/announcements.routes.js';
import { dashboardRoutes } from './modules/dashboard/dashboard.routes.js';
import { ticketRoomPolicy } from './modules/tickets/room-policy.js';
import { ticketsRoutes } from './modules/tickets/tickets.routes.js';
import { replayInboundQueue, type PipelineDeps } from './pipeline/inbound.js';
import { registerCompanyCleanup } from './modules/companies/company-cleanup.js';

export interface RunningApp {
  url: string;
  port: number;
  config: Config;
  orm: MikroORM;
  events: EventBus;
  realtime: Realtime;
  scheduler: Scheduler;
  logger: Logger;
  channels: ChannelManager;
  media: MediaStore;
  stop(): Promise<void>;
}

const here = path.dirname(fileURLToPath(import.meta.url));
/** The renderer's web build, next to the server in the monorepo. */
export const DEFAULT_WEB_DIR = path.resolve(here, '../../desktop/dist/renderer');

/** The composition root: database, ORM, jobs, HTTP and realtime, wired once. */
export const startApp = async (config: Config, options: { logger?: Logger; print?: (line: string) => void } = {}): Promise<RunningApp> => {
  const logger = options.logger ?? createLogger(config.logLevel);
  let embedded: EmbeddedDatabase | undefined;
  let databaseUrl = config.databaseUrl;
  if (!databaseUrl) {
    embedded = await startEmbeddedPostgres({
      dir: path.join(config.dataDir, 'postgres'),
      port: config.embeddedPgPort,
      password: keptSecret(config.dataDir, 'postgres-password'),
      database: 'atrium',
      logger,
    });
    databaseUrl = embedded.url;
  }

  const orm = await initOrm(databaseUrl, logger);
  const systemEm = () => forSystem(orm.em);
  const events = new EventBus(logger);
  await seedFirstStart(systemEm(), config, logger, options.print);
  await backfillDefaultSettings(systemEm());

  const media = createMediaStore({ dataDir: config.dataDir, secret: config.jwtSecret });
  // socket.io wraps the server's request listener when it attaches, so Koa is reached through this one.
  let handleRequest: RequestListener = (_req, res) => {
    res.statusCode = 503;
    res.end();
  };
  const httpServer: Server = createServer((req, res) => handleRequest(req, res));
  const realtime = createRealtime({
    httpServer,
    config,
    logger,
    authenticate: (token) => authenticate(systemEm(), config, token),
    checkSessions: createSessionCheck(systemEm),
    presence: createPresence(systemEm),
  });
  realtime.setRoomPolicy(ticketRoomPolicy(systemEm));
  registerRealtimeListeners(events, realtime);
  registerConversationListeners(events, realtime);

  // Channels: Baileys (`beta`) always, the simulated phone when enabled.
  const providers: Record<string, ChannelProvider> = { beta: createBaileysProvider() };
  if (config.channelSandbox) providers.sandbox = createSandboxProvider(systemEm);
  // Sessions report into the pipeline, which answers through the sessions: the closure is called later.
  const channels = new ChannelManager(providers, {
    events: (connection) => sessionEvents(pipeline, connection),
    auth: (connection) => createAuthStore(systemEm, connection.companyId, connection.id),
    logger,
  });
  registerCompanyCleanup(events, { channels, media });
  const pipeline: PipelineDeps = { systemEm, logger, media, events, channels };
  pipeline.automation = createQueueChatbot(pipeline);

  // Jobs are defined once the parts they use exist; the scheduler starts before any route is served.
  const registry = new JobRegistry();
  registerPresenceJobs(registry, systemEm);
  registerChatbotJobs(registry, pipeline);
  registerBillingJobs(registry, systemEm, logger);
  registerBillingListeners(events, systemEm, logger);
  registerScheduleJobs(registry, pipeline);
  const scheduler = await createScheduler({ databaseUrl, mongodbUrl: config.mongodbUrl, registry, logger });
  await scheduler.start();
  await startBillingJobs(scheduler);

  const deps: RouteDeps = {
    config,
    logger,
    events,
    systemEm,
    auth: authMiddleware({ systemEm, config, events }),
    media,
    channels,
    realtime,
    scheduler,
  };
  const health = new Router<AppState>();
  health.get('/health', async (ctx) => {
    const dbUp = await orm.em
      .fork()
      .getConnection()
      .execute('select 1')
      .then(() => true)
      .catch(() => false);
    const up = dbUp && scheduler.isUp();
    ctx.status = up ? 200 : 503;
    ctx.body = up ? { status: 'ok' } : { status: 'unavailable', database: dbUp, scheduler: scheduler.isUp() };
  });
  const routers = [
    health,
    authRoutes(deps),
    companiesRoutes(deps),
    plansRoutes(deps),
    usersRoutes(deps),
    settingsRoutes(deps),
    helpsRoutes(deps),
    mediaRoutes(deps),
    connectionsRoutes(deps),
    ticketsRoutes(deps),
    messagesRoutes(deps),
    contactsRoutes(deps),
    queuesRoutes(deps),
    tagsRoutes(deps),
    ticketNotesRoutes(deps),
    quickMessagesRoutes(deps),
    queueOptionsRoutes(deps),
    billingRoutes(deps),
    schedulesRoutes(deps),
    announcementsRoutes(deps),
    dashboardRoutes(deps),
    ...(config.channelSandbox ? [sandboxRoutes(deps)] : []),
  ];
  const koa = buildHttpApp({ config: { ...config, webDir: config.webDir ?? DEFAULT_WEB_DIR }, logger, routers });
  handleRequest = koa.callback();

  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(config.port, config.host, () => resolve());
  });
  const port = (httpServer.address() as AddressInfo).port;
  logger.info({ port }, `Atrium listening on http://localhost:${port}`);

  // What a crash left half-processed, then every connection's session.
  await replayInboundQueue(pipeline).catch((err: unknown) => logger.error({ err }, 'inbound replay failed'));
  await startAllSessions(systemEm, channels, logger);

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      // Stop accepting, let jobs finish, then close sockets, the database and the embedded server.
      httpServer.close();
      httpServer.closeIdleConnections();
      await scheduler.stop().catch((err: unknown) => logger.error({ err }, 'scheduler stop failed'));
      await channels.stopAll();
      await realtime.close();
      httpServer.closeAllConnections();
      await orm.close(true);
      await embedded?.stop();
      logger.info('stopped');
    })());

  return { url: `http://127.0.0.1:${port}`, port, config, orm, events, realtime, scheduler, logger, channels, media, stop };
};
