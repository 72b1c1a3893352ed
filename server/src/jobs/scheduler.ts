import { Agenda, type Job } from 'agenda';
import { PostgresBackend } from '@agendajs/postgres-backend';
import pg from 'pg';
import type { Logger } from '../logger.js';

/** A job a module defines; `every` makes it recurring (Agenda interval syntax, e.g. '1 minute'). */
export interface JobDefinition<T extends Record<string, unknown> = Record<string, unknown>> {
  name: string;
  handler: (data: T, job: Job<T>) => Promise<void>;
  every?: string;
  concurrency?: number;
  /** How long a running job stays locked (ms); a job a crash left locked runs again after it (Agenda's default is 10 minutes). */
  lockLifetime?: number;
}

/** The registry each feature module adds its jobs to, before the scheduler starts. */
export class JobRegistry {
  readonly definitions: JobDefinition<never>[] = [];

  define<T extends Record<string, unknown>>(definition: JobDefinition<T>): void {
    if (this.definitions.some((d) => d.name === definition.name)) throw new Error(`job ${definition.name} defined twice`);
    this.definitions.push(definition as unknown as JobDefinition<never>);
  }
}

export interface Scheduler {
  agenda: Agenda;
  start(): Promise<void>;
  stop(timeoutMs?: number): Promise<void>;
  isUp(): boolean;
  /** Runs `name` at `when` with `data`; survives restarts because it is stored in the database. Answers the job's id. */
  schedule<T extends Record<string, unknown>>(when: Date | string, name: string, data: T): Promise<string>;
  /** Removes a scheduled job that has not run (a no-op for one that ran or never was). */
  cancel(jobId: string): Promise<void>;
  now<T extends Record<string, unknown>>(name: string, data: T): Promise<void>;
}

/**
 * Agenda 6 on the same PostgreSQL by default; on MongoDB when MONGODB_URL is set (the `mongo` compose
 * profile). The Mongo path cannot be exercised on a machine without a MongoDB server.
 */
export const createScheduler = async (options: {
  databaseUrl: string;
  mongodbUrl?: string;
  registry: JobRegistry;
  logger: Logger;
  processEvery?: string;
}): Promise<Scheduler> => {
  const { registry, logger } = options;
  // Our own pool, so a lost connection is logged rather than an unheard 'error' that ends the process.
  const pool = options.mongodbUrl ? undefined : new pg.Pool({ connectionString: options.databaseUrl, max: 5 });
  pool?.on('error', (err) => logger.warn({ err }, 'job store connection lost'));
  const backend = options.mongodbUrl
    ? new (await import('@agendajs/mongo-backend')).MongoBackend({ address: options.mongodbUrl })
    : new PostgresBackend({ pool });
  // The LISTEN/NOTIFY channel reports a lost connection as an 'error' event; unheard, that would end the
  // process whenever the database restarts (or stops before it at shutdown). Agenda reconnects it.
  const channel = (backend as { notificationChannel?: { on?: (event: string, fn: (err: unknown) => void) => void } })
    .notificationChannel;
  channel?.on?.('error', (err) => logger.warn({ err }, 'job notification channel lost its connection'));
  const agenda = new Agenda({ backend, processEvery: options.processEvery ?? '5 seconds' });
  let up = false;
  agenda.on('error', (err: unknown) => logger.error({ err }, 'job scheduler error'));
  agenda.on('fail', (err: unknown, job: Job) => logger.error({ err, job: job.attrs.name }, 'job failed'));

  for (const def of registry.definitions) {
    agenda.define(def.name, (job: Job) => def.handler(job.attrs.data as never, job as never), {
      concurrency: def.concurrency ?? 5,
      ...(def.lockLifetime ? { lockLifetime: def.lockLifetime } : {}),
    });
  }

  return {
    agenda,
    async start() {
      await agenda.start();
      for (const def of registry.definitions) {
        if (def.every) await agenda.every(def.every, def.name, {}, { skipImmediate: true });
      }
      up = true;
    },
    async stop(timeoutMs = 7000) {
      up = false;
      // Lets running jobs finish; what is still running at the deadline is unlocked for another instance.
      const result = await agenda.drain({ timeout: timeoutMs });
      if (result.running > 0) await agenda.stop();
      await pool?.end();
    },
    isUp: () => up,
    async schedule(when, name, data) {
      const job = await agenda.schedule(when, name, data);
      return String(job.attrs._id);
    },
    async cancel(jobId) {
      await agenda.cancel({ id: jobId });
    },
    async now(name, data) {
      await agenda.now(name, data);
    },
  };
};
