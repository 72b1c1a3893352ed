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
import { authenticate, liveSessions } from './modules/auth/index.js';
import type { Actor } from './context.js';
import { backfillDefaultSettings } from './modules/settings/index.js';
import { createRealtime, type Realtime } from './realtime/server.js';
import { createAuthStore } from './channels/auth-store.js';
import { createBaileysProvider } from './channels/baileys/index.js';
import { ConnectionLeases, type LeaseOptions } from './channels/lease.js';
import { ConnectionWakeups } from './channels/wakeups.js';
import { OwnerRequests } from './channels/owner-requests.js';
import { PgListener } from './channels/pg-listener.js';
import { ChannelManager } from './channels/manager.js';
import { startAllSessions } from './channels/boot.js';
import { sandboxRoutes } from './channels/sandbox/sandbox.routes.js';
import { createSandboxProvider } from './channels/sandbox/sandbox.provider.js';
import type { ChannelProvider } from './channels/types.js';
import { mediaRoutes } from './media/media.routes.js';
import { mediaStoreFor } from './media/from-config.js';
import type { MediaStore } from './media/storage.js';
import { sessionEvents } from './pipeline/channel-events.js';
import { ticketRoomPolicy } from './modules/tickets/index.js';
import { replayInboundQueue, type PipelineDeps } from './pipeline/inbound.js';
import { modules, type ModuleContext } from './modules/index.js';
import { OutboxSender } from './modules/outbox/index.js';
import { createPresence } from './modules/users/index.js';
import { registerMediaJobs } from './pipeline/media.js';
import { inboundSteps } from './pipeline/steps/index.js';
import { registerStepTaskJobs, StepTasks } from './pipeline/steps/tasks.js';
import { registerStepJobs, RESUME_STEP_JOB, scheduledWaits } from './pipeline/steps/waiting.js';

export interface RunningApp {
  url: string;
  /** The inbound pipeline (its steps, for tests and tools). */
  pipeline: PipelineDeps;
  port: number;
  config: Config;
  orm: MikroORM;
  events: EventBus;
  realtime: Realtime;
  scheduler: Scheduler;
  logger: Logger;
  channels: ChannelManager;
  media: MediaStore;
  /** The connections' senders of this process (tests wait for a lane to be idle). */
  outbox: OutboxSender;
  stop(): Promise<void>;
}

const here = path.dirname(fileURLToPath(import.meta.url));
/** The renderer's web build, next to the server in the monorepo. */
export const DEFAULT_WEB_DIR = path.resolve(here, '../../desktop/dist/renderer');

/** The composition root: database, ORM, jobs, HTTP and realtime, wired once. */
export const startApp = async (
  config: Config,
  options: {
    logger?: Logger;
    print?: (line: string) => void;
    /** Channel providers that replace the default ones by name (tests give Baileys a socket of their own). */
    providers?: Record<string, ChannelProvider>;
    /** The connection leases' timing (tests shorten it to see a takeover). */
    leases?: LeaseOptions;
  } = {},
): Promise<RunningApp> => {
  const logger = options.logger ?? createLogger(config.logLevel);
  // Checked before anything starts: a wrong bucket, endpoint or key stops the server at once, not at the first file.
  const media = mediaStoreFor(config, logger);
  try {
    await media.check();
  } catch (err) {
    await media.close();
    const where = config.media.storage === 's3' ? `bucket ${config.media.s3.bucket}` : config.media.dir;
    throw new Error(`media storage (${where}) cannot be used: ${(err as Error).name}: ${(err as Error).message}`, { cause: err });
  }
  logger.info(
    config.media.storage === 's3'
      ? { storage: 's3', bucket: config.media.s3.bucket, endpoint: config.media.s3.endpoint, prefix: config.media.s3.prefix }
      : { storage: 'local', dir: config.media.dir },
    'media storage',
  );
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

  // socket.io wraps the server's request listener when it attaches, so Koa is reached through this one.
  let handleRequest: RequestListener = (_req, res) => {
    res.statusCode = 503;
    res.end();
  };
  // Idle kept-alive connections stay open longer than a proxy's (nginx, load balancers: 60 s) or a client's
  // keep its side, so the server never closes one just as the other end sends a request on it (a 502 or an
  // ECONNRESET). The headers' deadline must be above it. A stop still ends idle connections at once.
  const httpServer: Server = createServer({ keepAliveTimeout: 65_000, headersTimeout: 66_000 }, (req, res) => handleRequest(req, res));
  const realtime = createRealtime({
    httpServer,
    config,
    logger,
    authenticate: (token) => authenticate(systemEm(), config, token),
    // A session whose company may no longer be used ends its sockets like a revoked one.
    checkSessions: async (ids) =>
      new Map([...(await liveSessions(systemEm(), ids))].filter((entry): entry is [string, Actor] => !(entry[1] instanceof Error))),
    presence: createPresence(systemEm),
    // Every server process on this database hears every emit.
    databaseUrl,
  });
  realtime.setRoomPolicy(ticketRoomPolicy(systemEm));
  for (const module of modules) module.realtime?.(events, realtime);

  // Channels: Baileys (`beta`) always, the simulated phone when enabled.
  // A message the database cannot take when it arrives waits in DATA_DIR/spool (WhatsApp will not resend it).
  const providers: Record<string, ChannelProvider> = { beta: createBaileysProvider({ spoolDir: path.join(config.dataDir, 'spool') }) };
  if (config.channelSandbox) providers.sandbox = createSandboxProvider(systemEm);
  Object.assign(providers, options.providers);
  // Sessions report into the pipeline, which answers through the sessions: the closure is called later.
  // Each runs under this process's lease on its connection; its key writes check that lease.
  const leases = new ConnectionLeases(systemEm, { ttlMs: config.connectionLeaseTtlMs, ...options.leases });
  // What the server processes on this database tell each other: work for a connection, commands for its session.
  const listener = new PgListener(databaseUrl, logger);
  const wakeups = new ConnectionWakeups(listener, systemEm);
  const requests = new OwnerRequests(listener, systemEm, logger, { self: leases.owner, timeoutMs: config.sessionCommandTimeoutMs });
  await listener.start();
  const channels = new ChannelManager(providers, {
    events: (connection) => sessionEvents(pipeline, connection),
    auth: (connection) => createAuthStore(systemEm, connection.companyId, connection.id, (tx) => leases.fence(tx, connection.id)),
    logger,
    leases,
    wakeups,
    requests,
    // What an earlier run of the connection accepted and did not finish is taken up by its new owner.
    beforeStart: async (connection) => void (await replayInboundQueue(pipeline, connection)),
  });
  const pipeline: PipelineDeps = { systemEm, logger, media, events, channels, steps: [], mediaMaxBytes: config.mediaDownloadMaxBytes };
  // The steps' slow work (external calls), out of the connections' inbound stage.
  const stepTasks = new StepTasks({ systemEm, logger, steps: () => pipeline.steps });
  pipeline.tasks = stepTasks;

  // Every send goes through the outbox: one sender per connection.
  const outbox = new OutboxSender({ systemEm, channels, media, events, logger });
  const moduleContext: ModuleContext = { config, logger, events, systemEm, media, channels, pipeline, outbox };
  // The inbound automation: the pipeline's own steps and what each module contributes, in order.
  pipeline.steps.push(...inboundSteps(pipeline, modules.flatMap((module) => module.steps?.(moduleContext) ?? [])));
  for (const module of modules) module.listeners?.(moduleContext);

  // Jobs are defined once the parts they use exist; the scheduler starts before any route is served.
  const registry = new JobRegistry();
  for (const module of modules) module.jobs?.(registry, moduleContext);
  registerStepJobs(registry, {
    steps: () => pipeline.steps,
    systemEm,
    logger,
    reschedule: (when, data) => scheduler.schedule(when, RESUME_STEP_JOB, data),
  });
  registerMediaJobs(registry, pipeline);
  registerStepTaskJobs(registry, stepTasks);
  const scheduler = await createScheduler({ databaseUrl, mongodbUrl: config.mongodbUrl, registry, logger });
  pipeline.waits = scheduledWaits(scheduler);
  await scheduler.start();
  for (const module of modules) await module.started?.({ ...moduleContext, scheduler });

  const deps: RouteDeps = {
    config,
    logger,
    events,
    systemEm,
    auth: authMiddleware({ systemEm, events, authenticate: (token) => authenticate(systemEm(), config, token) }),
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
    mediaRoutes(deps),
    ...modules.flatMap((module) => module.routes?.(deps) ?? []),
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

  // Every connection's session (each first takes up what a crash left half-processed of its inbound messages).
  await startAllSessions(systemEm, channels, logger);
  channels.startKeeping();
  await outbox.sweep().catch((err: unknown) => logger.error({ err }, 'outbox sweep failed'));
  await stepTasks.sweep().catch((err: unknown) => logger.error({ err }, 'step task sweep failed'));

  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      // Each step is bounded, so the database is always stopped within the 10 s a stop is given.
      const within = async (ms: number, step: string, work: Promise<unknown>) => {
        let timer: NodeJS.Timeout | undefined;
        const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), ms)));
        if (await Promise.race([work.then(() => false), late])) logger.warn({ step, ms }, 'shutdown step ran out of time');
        clearTimeout(timer);
      };
      // New connections are refused; a request arriving on a kept-alive one is answered 503 and its
      // connection closed, so busy clients (agents polling, inbound traffic) cannot keep the server open.
      handleRequest = (_req, res) => {
        res.statusCode = 503;
        res.end();
      };
      httpServer.prependListener('request', (_req, res) => res.setHeader('connection', 'close'));
      httpServer.close();
      httpServer.closeIdleConnections();
      // Running jobs finish while the last requests do (what is left at the deadline is unlocked).
      const jobs = scheduler.stop(5_000).catch((err: unknown) => logger.error({ err }, 'scheduler stop failed'));
      // socket.io's close waits for every HTTP connection to end: running requests get a moment to
      // answer, connections they leave idle are closed as they go, then whatever is left is cut.
      const realtimeClosed = realtime.close().catch((err: unknown) => logger.error({ err }, 'realtime close failed'));
      const idleSweep = setInterval(() => httpServer.closeIdleConnections(), 100);
      await within(2_000, 'requests', realtimeClosed);
      clearInterval(idleSweep);
      httpServer.closeAllConnections();
      await within(1_000, 'sockets', realtimeClosed);
      await jobs;
      // The sends in flight finish (a row cut off here is settled by its id at the next start).
      await within(1_000, 'outbox', outbox.stop());
      await within(1_000, 'step tasks', stepTasks.stop());
      await within(1_000, 'channels', channels.stopAll());
      await media.close();
      requests.stop();
      await listener.stop();
      await orm.close(true);
      await embedded?.stop();
      logger.info('stopped');
    })());

  return { url: `http://127.0.0.1:${port}`, pipeline, port, config, orm, events, realtime, scheduler, logger, channels, media, outbox, stop };
};
