import type { MediaDownload } from '../channels/types.js';
import { forCompany, forSystem } from '../db/tenant.js';
import { AppError } from '../errors.js';
import type { JobRegistry } from '../jobs/scheduler.js';
import { MediaTooLargeError } from '../media/storage.js';
import { Message } from '../modules/messages/message.entity.js';
import { DEFAULT_MEDIA_MAX_BYTES, type ConnectionKey, type PipelineDeps } from './inbound.js';
import { announceUpdated } from './message-updates.js';

/**
 * The life of a received media file: downloaded beside the message (never holding up the chat), taken up
 * again when its session connects after a crash or a stop, and marked failed when its download died.
 */
/**
 * The media of a message stored with its media pending: streamed to a file (within the size limit, never
 * whole in memory), then the message is completed and the clients told. A download that fails or is over
 * the limit marks the message so (`failed`, `tooLarge`). Runs outside the chat's ordering: other messages
 * of the chat and of the connection never wait for it.
 */
export const completeMedia = async (deps: PipelineDeps, connection: ConnectionKey, download: MediaDownload): Promise<void> => {
  const em = forCompany(deps.systemEm(), connection.companyId);
  const message = await em.findOne(Message, { whatsappId: connection.id, wid: download.id, mediaStatus: 'pending' });
  // Not waiting for media (an echo of our own send, a duplicate delivery): nothing is fetched.
  if (!message) return;
  const maxBytes = deps.mediaMaxBytes ?? DEFAULT_MEDIA_MAX_BYTES;
  const log = deps.logger.child({ whatsappId: connection.id, messageId: download.id });
  let outcome: { status: 'failed' | 'tooLarge' } | { status: null; fileName: string; mediaName: string };
  if ('error' in download) {
    log.warn({ reason: download.error }, 'media could not be downloaded');
    outcome = { status: 'failed' };
  } else if (download.fileLength !== undefined && download.fileLength > maxBytes) {
    log.info({ fileLength: download.fileLength, maxBytes }, 'media over the download limit; not downloaded');
    outcome = { status: 'tooLarge' };
  } else {
    try {
      const stream = await download.open();
      const stored = await deps.media.saveStream(connection.companyId, { stream, mimetype: download.mimetype, filename: download.filename, maxBytes });
      outcome = { status: null, fileName: stored.fileName, mediaName: stored.mediaName };
    } catch (err) {
      if (err instanceof MediaTooLargeError) {
        log.info({ maxBytes }, 'media over the download limit; download stopped');
        outcome = { status: 'tooLarge' };
      } else {
        log.warn({ err }, 'media download failed');
        outcome = { status: 'failed' };
      }
    }
  }
  // Written only if it still waits (a concurrent completion, a deleted message): the file is dropped otherwise.
  const fields = outcome.status === null ? { mediaStatus: null, mediaUrl: outcome.fileName, mediaName: outcome.mediaName } : { mediaStatus: outcome.status };
  const changed = await em.nativeUpdate(Message, { id: message.id, mediaStatus: 'pending' }, fields);
  if (changed === 0) {
    if (outcome.status === null) await deps.media.remove(connection.companyId, outcome.fileName);
    return;
  }
  const fresh = forCompany(deps.systemEm(), connection.companyId);
  await announceUpdated(deps, fresh, connection, await fresh.findOneOrFail(Message, message.id), false);
};

/** How long a media may stay pending before it counts as lost (its download died with its process). */
export const STALE_MEDIA_MS = 15 * 60_000;

/** How far back (by the message's time) a connecting session takes up media left pending, and how many at once. */
export const RESUME_MEDIA_WINDOW_MS = 24 * 60 * 60_000;
export const RESUME_MEDIA_MAX = 50;

/**
 * The connection's session is connected (at start, after a restart, after a drop): the media its messages
 * still wait for (a crash or a stop cut their download off) are fetched again by it, the newest first,
 * within RESUME_MEDIA_WINDOW_MS and at most RESUME_MEDIA_MAX (a huge backlog does not stampede; older
 * ones are left to the stale sweep, and to the agent's "download again"). Each goes the way of a new
 * download (streamed, size limit, outside the chats' order) and ends in completeMedia. Answers how many
 * were asked for.
 */
export const resumePendingMedia = async (deps: PipelineDeps, connection: ConnectionKey, now = new Date()): Promise<number> => {
  const session = deps.channels.find(connection.id);
  if (!session?.refetchMedia || !session.canSend()) return 0;
  const em = forCompany(deps.systemEm(), connection.companyId);
  // Taken up by touching them: the stale sweep gives each a fresh STALE_MEDIA_MS from now.
  const rows: { id: number }[] = await em.execute(
    `update messages set updated_at = now() where id in (
       select id from messages where company_id = ? and whatsapp_id = ? and media_status = 'pending' and created_at > ?
        order by created_at desc, id desc limit ?)
     returning id`,
    [connection.companyId, connection.id, new Date(now.getTime() - RESUME_MEDIA_WINDOW_MS), RESUME_MEDIA_MAX],
  );
  let resumed = 0;
  for (const { id } of rows) {
    const message = await em.findOne(Message, { id, mediaStatus: 'pending' }, { populate: ['raw'] });
    if (!message?.wid) continue;
    try {
      await session.refetchMedia(message.wid, message.raw);
      resumed += 1;
    } catch (err) {
      // Dropped again meanwhile: the next connect takes them up.
      if (err instanceof AppError && err.code === 'ERR_WAPP_NOT_INITIALIZED') break;
      // Nothing to fetch it from (no stored object, a provider that cannot): failed now rather than in 15 minutes.
      await completeMedia(deps, connection, { id: message.wid, error: err instanceof AppError ? err.code : String(err) });
    }
  }
  if (rows.length > 0) deps.logger.info({ whatsappId: connection.id, pending: rows.length, resumed }, 'pending media taken up again');
  return resumed;
};

/**
 * Media left pending by a download that will never finish (the process that ran it crashed or was
 * stopped mid-download): marked failed, so the agent is not told "downloading" forever. A download still
 * running after this long is dropped when it ends (completeMedia only fills a pending message).
 *
 * `runningSince` (the job passes this process's start): nothing counts as stale during the first
 * STALE_MEDIA_MS of a process, since its sessions take pending media up when they connect (and touch
 * them); otherwise a sweep overdue at start after a long downtime would fail them before that.
 */
export const failStaleMedia = async (deps: PipelineDeps, now: Date, options: { runningSince?: Date } = {}): Promise<number> => {
  if (options.runningSince && now.getTime() - options.runningSince.getTime() < STALE_MEDIA_MS) return 0;
  const root = forSystem(deps.systemEm());
  const stale: { id: number; company_id: number; whatsapp_id: number | null }[] = await root.execute(
    `update messages set media_status = 'failed', updated_at = now()
      where media_status = 'pending' and updated_at < ? returning id, company_id, whatsapp_id`,
    [new Date(now.getTime() - STALE_MEDIA_MS)],
  );
  for (const row of stale) {
    const em = forCompany(deps.systemEm(), row.company_id);
    const message = await em.findOne(Message, row.id);
    if (message) await announceUpdated(deps, em, { id: row.whatsapp_id ?? 0, companyId: row.company_id }, message, false);
  }
  return stale.length;
};

/** The sweep of media whose download died; its name is kept from when it was the messages module's. */
export const registerMediaJobs = (registry: JobRegistry, deps: PipelineDeps): void => {
  // Connecting sessions take pending media up first (see failStaleMedia).
  const runningSince = new Date();
  registry.define({
    name: 'messages:fail-stale-media',
    every: '5 minutes',
    concurrency: 1,
    handler: async () => {
      await failStaleMedia(deps, new Date(), { runningSince });
    },
  });
};
