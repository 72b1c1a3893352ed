import { randomInt } from 'node:crypto';
import path from 'node:path';
import type { EntityManager } from '@mikro-orm/postgresql';
import { CAMPAIGN_MESSAGE_FIELDS, type CampaignSettings } from '@atrium/shared';
import type { ServiceContext } from '../../context.js';
import { executeBound, intArray } from '../../db/sql.js';
import { forCompany } from '../../db/tenant.js';
import { AppError } from '../../errors.js';
import type { EventBus } from '../../events/bus.js';
import type { JobRegistry } from '../../jobs/scheduler.js';
import type { Logger } from '../../logger.js';
import type { MediaStore } from '../../media/storage.js';
import { Company } from '../companies/company.entity.js';
import { Whatsapp } from '../connections/whatsapp.entity.js';
import { FileOption } from '../files/file-list.entity.js';
import { renderVariables } from '../messages/index.js';
import { newMessageId, queueBulk, withdrawQueued, type BulkRow, type PacingPolicy } from '../outbox/index.js';
import { Campaign } from './campaign.entity.js';
import { readCampaignSettings } from './campaign-settings.js';
import { announceCampaign, findCampaign, START_JOB, type StartJobData } from './campaigns.service.js';

/**
 * The campaign engine: exactly once per contact, the opposite of the family's (spec 04 section 1's notes;
 * research/automation-anchors.md section 1).
 *
 * - Start: one transaction claims the campaign (PROGRAMADA whose time has come, overdue ones included;
 *   restart: CANCELADA) with a conditional UPDATE, so of two schedulers exactly one wins; the same
 *   transaction makes one row per contact of the list (valid or not checked yet, each number once) with its
 *   variant picked, its text rendered and its message id, and queues the first window of rows' messages in
 *   the outbox (queueBulk: the outbox rows only; a contact and its history copy are written as its message
 *   settles). A crash before the commit leaves the campaign PROGRAMADA and nothing made.
 * - The window: at most CAMPAIGN_OUTBOX_WINDOW rows wait in the outbox; as their outcomes come back the next
 *   rows are queued (topUpCampaign, also at every sweep). A row is queued in the transaction that writes its
 *   outbox row and records that row's id on it, under the row's lock: it is queued once.
 * - Sending is the outbox's: one sender per connection, a conversation's rows (an agent's reply) before the
 *   campaign's, transient errors retried with backoff and permanent ones failed, a crash mid-send settled
 *   by the message id. Pacing is the connection's policy 'campaigns' (the company's campaign settings),
 *   which the outbox applies when it takes a row: two campaigns on one number take turns and never double
 *   its rate, and a backlog after an outage still goes one gap apart.
 * - Outcomes come back as the outbox's `outbox.settled` events (sent, failed, delivered, read), recorded on
 *   the rows in batches; a reply on the connection sets repliedAt. The sweep copies outcomes a crash kept
 *   from being recorded, and finishes (FINALIZADA, completedAt) a campaign with nothing pending: failures
 *   never hold it.
 * - Cancel is a pause: in the same transaction as CANCELADA, the rows' queued messages that have not left
 *   are withdrawn from the outbox (the sender takes only pending rows, under a row lock: a message either
 *   left before the cancel or never leaves). The rows stay pending; restart makes them again from now.
 */
export interface EngineDeps {
  systemEm: () => EntityManager;
  media: MediaStore;
  events: EventBus;
  logger: Logger;
  /** How many of a running campaign's rows have their messages in the outbox at once (CAMPAIGN_OUTBOX_WINDOW). */
  outboxWindow: number;
}

/** The engine's inputs from the app's. */
export const engineDepsOf = (ctx: Omit<EngineDeps, 'outboxWindow'> & { config: { campaignOutboxWindow: number } }): EngineDeps => ({
  systemEm: ctx.systemEm,
  media: ctx.media,
  events: ctx.events,
  logger: ctx.logger,
  outboxWindow: ctx.config.campaignOutboxWindow,
});

export const SWEEP_JOB = 'campaigns:sweep';
/** The connection's pacing policy that every campaign of the company goes by. */
export const PACING_NAME = 'campaigns';
/** Rows the sweep starts per round (each is one transaction). */
const SWEEP_STARTS = 20;

// ---------------------------------------------------------------------------------------------------
// Pacing (spec 04 section 1's note: the intended meaning)

/**
 * The company's settings as the outbox's pacing policy: messageInterval seconds between two sends; after
 * every longerIntervalAfter sends a gap of greaterInterval seconds instead; 0 turns a setting off; each gap
 * spread ±30% at random by the outbox; an optional daily cap and send window.
 */
export const pacingOf = (s: CampaignSettings): PacingPolicy => ({
  name: PACING_NAME,
  gapMs: s.messageInterval * 1000,
  longGapEvery: s.longerIntervalAfter,
  longGapMs: s.longerIntervalAfter > 0 ? s.greaterInterval * 1000 : 0,
  dailyCap: s.dailyLimit,
  window: s.sendWindowStart && s.sendWindowEnd ? { from: s.sendWindowStart, to: s.sendWindowEnd } : null,
});

/**
 * When the i-th send (0-based) is expected after the first at the mean pace: i gaps, of which every
 * longerIntervalAfter-th is the long one (the outbox's long gap is at least the ordinary one). What the
 * report shows as planned; the outbox's gate decides the real time.
 */
export const plannedOffsetMs = (index: number, s: Pick<CampaignSettings, 'messageInterval' | 'longerIntervalAfter' | 'greaterInterval'>): number => {
  const gap = s.messageInterval * 1000;
  const long = Math.max(s.greaterInterval * 1000, gap);
  const longs = s.longerIntervalAfter > 0 ? Math.floor(index / s.longerIntervalAfter) : 0;
  return (index - longs) * gap + longs * long;
};

// ---------------------------------------------------------------------------------------------------
// Messages

/** One of the non-empty variants, uniformly at random (1-5); 0 when there is none (a file-only campaign). */
export const pickVariant = (campaign: Pick<Campaign, (typeof CAMPAIGN_MESSAGE_FIELDS)[number]>): number => {
  const filled = CAMPAIGN_MESSAGE_FIELDS.map((field, i) => (campaign[field].trim() ? i + 1 : 0)).filter((n) => n > 0);
  return filled.length === 0 ? 0 : filled[randomInt(filled.length)];
};

/**
 * The text for one contact: {nome}, {email} and {numero} from the list item, then {key} for each of the
 * company's campaign variables, replaced literally (a key is never a pattern: spec 04 section 1's note),
 * then the platform's {{firstName}}-style variables in the company's time zone.
 */
export const renderCampaignMessage = (
  template: string,
  item: { name: string; number: string; email: string },
  variables: { key: string; value: string }[],
  timeZone: string,
): string => {
  let text = template.split('{nome}').join(item.name).split('{email}').join(item.email).split('{numero}').join(item.number);
  for (const v of variables) text = text.split(`{${v.key}}`).join(v.value);
  return renderVariables(text, { contactName: item.name, timeZone });
};

/** "typing…" for about the time the text takes to type. */
const typingMs = (text: string) => Math.min(3000, Math.max(800, text.length * 40));

const MIME_BY_EXT: Record<string, string> = {
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.mp4': 'video/mp4',
  '.mp3': 'audio/mpeg',
  '.ogg': 'audio/ogg',
  '.opus': 'audio/ogg',
  '.m4a': 'audio/mp4',
  '.pdf': 'application/pdf',
};
const mimeOf = (fileName: string, fallback?: string | null) => fallback || MIME_BY_EXT[path.extname(fileName).toLowerCase()] || 'application/octet-stream';

interface Material {
  fileRows: { fileName: string; mediaName: string; mimetype: string; caption: string }[];
  media: { fileName: string; mediaName: string; mimetype: string } | null;
}

/** What every contact gets besides the text: the file list's files first (spec 04 section 1), then the campaign's file. */
const materialOf = async (em: EntityManager, campaign: Campaign): Promise<Material> => {
  const options = campaign.fileListId
    ? await em.find(FileOption, { fileId: campaign.fileListId, path: { $ne: null } }, { orderBy: { position: 'asc', id: 'asc' } })
    : [];
  return {
    fileRows: options.map((o) => ({
      fileName: o.path!,
      mediaName: o.mediaName ?? o.name,
      mimetype: mimeOf(o.path!, o.mediaType),
      caption: o.name,
    })),
    media: campaign.mediaPath ? { fileName: campaign.mediaPath, mediaName: campaign.mediaName ?? campaign.mediaPath, mimetype: mimeOf(campaign.mediaName ?? campaign.mediaPath) } : null,
  };
};

/**
 * The outbox rows of one contact, in order; the last is its main message, whose outcome is the row's. A
 * voice note cannot carry a caption (spec 04 section 1's note): its text follows as a message of its own.
 * `typing`: "typing…" before the text, as a person would, when the campaign is paced; with pacing off the
 * messages go back to back and a typing step would only double the sender's work for each of them.
 */
const rowsForContact = (
  material: Material,
  text: string,
  base: Pick<BulkRow, 'number' | 'name' | 'source' | 'seq'>,
  typing: boolean,
): BulkRow[] => {
  const rows: BulkRow[] = material.fileRows.map((f) => ({
    ...base,
    body: f.caption,
    media: { fileName: f.fileName, mediaName: f.mediaName, mimetype: f.mimetype, voiceNote: f.mimetype.startsWith('audio/') },
  }));
  const media = material.media;
  if (media && !media.mimetype.startsWith('audio/')) {
    rows.push({ ...base, body: text, media: { ...media } });
  } else {
    if (media) rows.push({ ...base, body: '', media: { ...media, voiceNote: true } });
    if (text.trim()) rows.push({ ...base, body: text, ...(typing ? { presence: { kind: 'composing' as const, ms: typingMs(text) } } : {}) });
  }
  return rows;
};

// ---------------------------------------------------------------------------------------------------
// Start and restart

type Mode = 'start' | 'restart';

const CLAIM: Record<Mode, string> = {
  start: `status = 'PROGRAMADA' and scheduled_at <= now()`,
  restart: `status = 'CANCELADA'`,
};

/**
 * Starts (or restarts) the campaign if it is still due: the claim, every contact's row and the first window
 * of them queued in the outbox, in one transaction. Answers the number of rows made, or null when another
 * scheduler had it (or it is not due).
 */
export const launchCampaign = async (deps: EngineDeps, companyId: number, campaignId: number, mode: Mode): Promise<number | null> => {
  const em = forCompany(deps.systemEm(), companyId);
  const made = await em.transactional(async (tx) => {
    // The claim: one winner. A second scheduler's UPDATE waits for this transaction, then finds the status moved.
    const claimed = await tx.execute<{ id: number }[]>(
      `update campaigns set status = 'EM_ANDAMENTO', started_at = coalesce(started_at, now()), completed_at = null, updated_at = now()
        where id = ? and company_id = ? and ${CLAIM[mode]} returning id`,
      [campaignId, companyId],
    );
    if (claimed.length === 0) return null;
    const campaign = await tx.findOneOrFail(Campaign, campaignId, { refresh: true });
    const connection = await connectionOf(deps, tx, campaign);
    if (!connection) return 0;
    const settings = await readCampaignSettings(tx);
    const { timezone } = await tx.findOneOrFail(Company, companyId, { fields: ['timezone'] });

    // Rows a cancel took back from the outbox (or never queued) are made again below, from the list and the
    // campaign as they are now.
    await tx.execute(`delete from campaign_shipping where campaign_id = ? and company_id = ? and status = 'pending' and outbox_id is null`, [
      campaignId,
      companyId,
    ]);
    const [{ inFlight }] = await tx.execute<{ inFlight: number }[]>(
      `select count(*)::int as "inFlight" from campaign_shipping where campaign_id = ? and status = 'pending'`,
      [campaignId],
    );
    const listId = campaign.snapshotListId ?? campaign.contactListId;
    // Everyone of the list not known to be off WhatsApp, each number once, minus who has a row already
    // (sent, failed or on its way): a number never gets the campaign twice.
    const items = listId
      ? await tx.execute<{ id: number; name: string; number: string; email: string }[]>(
          `select distinct on (i.number) i.id, i.name, i.number, i.email from contact_list_items i
            where i.contact_list_id = ? and i.company_id = ? and (i.is_whatsapp_valid or i.checked_at is null)
              and not exists (select 1 from campaign_shipping s where s.campaign_id = ? and s.number = i.number)
            order by i.number, i.id`,
          [listId, companyId, campaignId],
        )
      : [];
    items.sort((a, b) => a.id - b.id);
    if (items.length === 0) return 0;

    const start = Date.now();
    const planned = items.map((item, i) => {
      const variant = pickVariant(campaign);
      const template = variant > 0 ? campaign[CAMPAIGN_MESSAGE_FIELDS[variant - 1]] : '';
      return {
        item_id: item.id,
        name: item.name,
        number: item.number,
        variant,
        message: renderCampaignMessage(template, item, settings.variables, timezone),
        planned_at: new Date(start + plannedOffsetMs(inFlight + i, settings)).toISOString(),
        seq: i,
        wid: newMessageId(),
      };
    });
    // One narrow table: the rows' messages are queued a window at a time (queueWindow), so the start of a
    // big campaign does not wait for every outbox row, and the outbox holds a few thousand of it at most.
    const inserted = await executeBound<{ id: number }>(
      tx,
      `insert into campaign_shipping (company_id, campaign_id, contact_list_item_id, whatsapp_id, number, name, variant, message, status,
           planned_at, seq, wid, created_at, updated_at)
       select ?, ?, r.item_id, ?, r.number, r.name, r.variant, r.message, 'pending', r.planned_at, r.seq, r.wid, now(), now()
         from jsonb_to_recordset(?::jsonb) as r(item_id int, name text, number text, variant int, message text, planned_at timestamptz, seq int, wid text)
       on conflict (campaign_id, number) do nothing
       returning id`,
      [companyId, campaignId, connection.id, JSON.stringify(planned)],
    );
    // The list was read with the campaign claimed (each number once, none with a row already): a number
    // taken meanwhile is a bug, and nothing is kept.
    if (inserted.length !== planned.length) throw new Error('campaign start: a row of the list was made twice');
    await queueWindow(deps, tx, campaign, settings, connection.id, deps.outboxWindow);
    return inserted.length;
  });
  if (made === null) return null;
  await finishIfDone(deps, companyId, campaignId);
  await announceCampaign({ em, events: deps.events }, deps.media, campaignId);
  deps.logger.info({ campaignId, rows: made, mode }, 'campaign started');
  return made;
};

/** The campaign's connection; without one (deleted) the campaign is paused: nothing can go until it gets another. */
const connectionOf = async (deps: EngineDeps, tx: EntityManager, campaign: Campaign) => {
  const connection = campaign.whatsappId ? await tx.findOne(Whatsapp, campaign.whatsappId, { fields: ['id'] }) : null;
  if (!connection) {
    await tx.execute(`update campaigns set status = 'CANCELADA', updated_at = now() where id = ?`, [campaign.id]);
    deps.logger.warn({ campaignId: campaign.id }, 'campaign has no connection: paused');
  }
  return connection;
};

/**
 * Queues the messages of up to `limit` of the campaign's rows not queued yet (in their order), each row
 * taken under its lock, and records each row's outbox row (or its failure: a number without digits). In
 * the caller's transaction: a row is queued exactly when its outbox row is written.
 */
const queueWindow = async (
  deps: EngineDeps,
  tx: EntityManager,
  campaign: Campaign,
  settings: CampaignSettings,
  whatsappId: number,
  limit: number,
): Promise<number> => {
  const rows = await tx.execute<{ id: number; number: string; name: string; message: string; seq: number; wid: string | null }[]>(
    `select id, number, name, message, seq, wid from campaign_shipping
      where campaign_id = ? and status = 'pending' and outbox_id is null order by id limit ? for update skip locked`,
    [campaign.id, limit],
  );
  if (rows.length === 0) return 0;
  const material = await materialOf(tx, campaign);
  // Every contact's messages, in order; the last of each is the one the row follows.
  const typing = settings.messageInterval > 0;
  const bulk: BulkRow[] = [];
  const mainOf = new Map<number, number>();
  rows.forEach((r, i) => {
    const own = rowsForContact(material, r.message, { number: r.number, name: r.name, source: { kind: 'campaign', id: r.id }, seq: r.seq }, typing);
    // Every row gets its message id at the start; one without (a row older than that) gets a new one here.
    own[own.length - 1].wid = r.wid ?? newMessageId();
    bulk.push(...own);
    mainOf.set(bulk.length - 1, i);
  });
  const { queued, invalid } = await queueBulk(deps, tx, { whatsappId, rows: bulk, pacing: pacingOf(settings), priority: 'bulk' });
  const links = new Map(queued.filter((q) => mainOf.has(q.index)).map((q) => [mainOf.get(q.index)!, q]));
  const unsendable = new Set(invalid.map((index) => mainOf.get(index)).filter((i): i is number => i !== undefined));
  await executeBound(
    tx,
    `update campaign_shipping s set outbox_id = r.outbox_id, wid = coalesce(r.wid, s.wid), contact_id = coalesce(s.contact_id, r.contact_id),
            status = r.status, error = r.error, updated_at = now()
       from jsonb_to_recordset(?::jsonb) as r(id int, outbox_id int, wid text, contact_id int, status text, error text)
      where s.id = r.id`,
    [
      JSON.stringify(
        rows.map((r, i) => ({
          id: r.id,
          outbox_id: links.get(i)?.outboxId ?? null,
          wid: links.get(i)?.wid ?? null,
          contact_id: links.get(i)?.contactId ?? null,
          status: unsendable.has(i) ? 'failed' : 'pending',
          error: unsendable.has(i) ? 'ERR_WAPP_INVALID_CONTACT' : null,
        })),
      ),
    ],
  );
  return rows.length;
};

/**
 * Keeps a running campaign's window full: once fewer than half of `deps.outboxWindow` of its rows wait in
 * the outbox, the next ones are queued (after a batch of outcomes, and at every sweep: a crash or a failed
 * top-up only delays them). The campaign's row is locked meanwhile, so two processes never fill it twice
 * and a cancel waits for it (then withdraws what it queued). Answers how many rows were queued.
 */
export const topUpCampaign = async (deps: EngineDeps, companyId: number, campaignId: number): Promise<number> => {
  const em = forCompany(deps.systemEm(), companyId);
  return em.transactional(async (tx) => {
    const running = await tx.execute<{ id: number }[]>(
      `select id from campaigns where id = ? and company_id = ? and status = 'EM_ANDAMENTO' for no key update`,
      [campaignId, companyId],
    );
    if (running.length === 0) return 0;
    const [{ waiting, unqueued }] = await tx.execute<{ waiting: number; unqueued: boolean }[]>(
      `select (select count(*)::int from (select 1 from campaign_shipping where campaign_id = ? and status = 'pending' and outbox_id is not null limit ?) w) as waiting,
              exists (select 1 from campaign_shipping where campaign_id = ? and status = 'pending' and outbox_id is null) as unqueued`,
      [campaignId, deps.outboxWindow, campaignId],
    );
    if (!unqueued || waiting * 2 >= deps.outboxWindow) return 0;
    const campaign = await tx.findOneOrFail(Campaign, campaignId, { refresh: true });
    const connection = await connectionOf(deps, tx, campaign);
    if (!connection) return 0;
    return queueWindow(deps, tx, campaign, await readCampaignSettings(tx), connection.id, deps.outboxWindow - waiting);
  });
};

// ---------------------------------------------------------------------------------------------------
// Cancel, restart, finish

/** POST /campaigns/{id}/cancel: a pause (spec 02 section 4); what has not left stays pending. */
export const cancelCampaign = async (ctx: ServiceContext, deps: EngineDeps, id: number): Promise<void> => {
  const companyId = ctx.actor.companyId;
  await ctx.em.transactional(async (tx) => {
    const rows = await tx.execute<{ id: number }[]>(
      `update campaigns set status = 'CANCELADA', updated_at = now() where id = ? and company_id = ? and status in ('EM_ANDAMENTO', 'PROGRAMADA') returning id`,
      [id, companyId],
    );
    if (rows.length === 0) {
      await findCampaign(tx, id);
      throw new AppError('ERR_CAMPAIGN_STATUS');
    }
    // Every message of the campaign still waiting in the outbox (a contact's files and text alike).
    const waiting = await tx.execute<{ id: number }[]>(
      `select o.id from outbound_messages o
        where o.company_id = ? and o.source_kind = 'campaign' and o.status = 'pending'
          and o.source_id in (select s.id from campaign_shipping s where s.campaign_id = ? and s.status = 'pending')`,
      [companyId, id],
    );
    const withdrawn = new Set(await withdrawQueued(tx, waiting.map((w) => w.id)));
    if (withdrawn.size > 0) {
      await tx.execute(
        `update campaign_shipping set outbox_id = null, wid = null, updated_at = now()
          where campaign_id = ? and status = 'pending' and outbox_id = any(?::int[])`,
        [id, intArray([...withdrawn])],
      );
    }
  });
  await announceCampaign(ctx, deps.media, id);
};

/** POST /campaigns/{id}/restart: from CANCELADA only; the remaining rows are made again and paced from now. */
export const restartCampaign = async (ctx: ServiceContext, deps: EngineDeps, id: number): Promise<void> => {
  await findCampaign(ctx.em, id);
  const made = await launchCampaign(deps, ctx.actor.companyId, id, 'restart');
  if (made === null) throw new AppError('ERR_CAMPAIGN_STATUS');
};

/** FINALIZADA with completedAt once no row is pending (failed ones count as done). */
export const finishIfDone = async (deps: EngineDeps, companyId: number, campaignId: number): Promise<boolean> => {
  const em = forCompany(deps.systemEm(), companyId);
  const done = await em.execute<{ id: number }[]>(
    `update campaigns c set status = 'FINALIZADA', completed_at = now(), updated_at = now()
      where id = ? and company_id = ? and status = 'EM_ANDAMENTO'
        and not exists (select 1 from campaign_shipping s where s.campaign_id = c.id and s.status = 'pending') returning id`,
    [campaignId, companyId],
  );
  if (done.length === 0) return false;
  await announceCampaign({ em, events: deps.events }, deps.media, campaignId);
  return true;
};

// ---------------------------------------------------------------------------------------------------
// Outcomes

export interface Outcome {
  shippingId: number;
  outboxId: number;
  status: 'sent' | 'failed' | 'delivered' | 'read';
  error: string | null;
  /** The contact it went to (a new number's contact is created when its message settles). */
  contactId?: number | null;
}

/**
 * Records outcomes on their rows in one statement (the outbox's `outbox.settled`, batched). Only the row's
 * main message counts (its files' outcomes are the outbox's to show). Several outcomes of one message in a
 * batch keep their order: the last of sent/failed decides (a late error receipt after sent, a resend after
 * failed), delivered and read only add. Answers the campaigns whose rows moved.
 */
export const recordOutcomes = async (em: EntityManager, outcomes: Outcome[]): Promise<{ campaignId: number; companyId: number }[]> => {
  if (outcomes.length === 0) return [];
  const merged = new Map<
    string,
    { shipping_id: number; outbox_id: number; final: string | null; error: string | null; delivered: boolean; read: boolean; contact_id: number | null }
  >();
  for (const o of outcomes) {
    const key = `${o.shippingId}:${o.outboxId}`;
    const m = merged.get(key) ?? { shipping_id: o.shippingId, outbox_id: o.outboxId, final: null, error: null, delivered: false, read: false, contact_id: null };
    m.contact_id = o.contactId ?? m.contact_id;
    if (o.status === 'sent' || o.status === 'failed') {
      m.final = o.status;
      m.error = o.status === 'failed' ? (o.error ?? 'ERR_SENDING_WAPP_MSG') : null;
    }
    if (o.status === 'delivered') m.delivered = true;
    if (o.status === 'read') m.read = m.delivered = true;
    merged.set(key, m);
  }
  return em.execute<{ campaignId: number; companyId: number }[]>(
    `with e as (select * from jsonb_to_recordset(?::jsonb) as e(shipping_id int, outbox_id int, final text, error text, delivered boolean, read boolean, contact_id int)),
     moved as (
       update campaign_shipping s set
         status = case when e.final is not null then e.final when e.delivered and s.status = 'pending' then 'sent' else s.status end,
         error = case when e.final = 'failed' then left(e.error, 100) when e.final = 'sent' then null else s.error end,
         sent_at = case when e.final = 'sent' or e.delivered then coalesce(s.sent_at, now()) else s.sent_at end,
         delivered_at = case when e.delivered then coalesce(s.delivered_at, now()) else s.delivered_at end,
         read_at = case when e.read then coalesce(s.read_at, now()) else s.read_at end,
         contact_id = coalesce(s.contact_id, e.contact_id),
         updated_at = now()
       from e where s.id = e.shipping_id and s.outbox_id = e.outbox_id
       returning s.campaign_id, s.company_id)
     select distinct campaign_id as "campaignId", company_id as "companyId" from moved`,
    [JSON.stringify([...merged.values()])],
  );
};

/**
 * The customer answered on a connection: the latest campaign message sent to them there (in the last week)
 * counts as replied. Answers its campaign, if any.
 */
export const recordReply = async (em: EntityManager, companyId: number, contactId: number, whatsappId: number) =>
  em.execute<{ campaignId: number; companyId: number }[]>(
    `update campaign_shipping s set replied_at = now(), updated_at = now()
      where s.id = (select id from campaign_shipping where company_id = ? and contact_id = ? and whatsapp_id = ? and status = 'sent'
                      and replied_at is null and sent_at > now() - interval '7 days' order by sent_at desc limit 1)
      returning s.campaign_id as "campaignId", s.company_id as "companyId"`,
    [companyId, contactId, whatsappId],
  );

/**
 * What the events could not record (a crash between the outbox's commit and the listener, a process that
 * died): the rows of running (and lately finished) campaigns take their outbox row's outcome; a row whose
 * outbox row is gone (its connection deleted) fails. Answers the campaigns whose rows moved.
 */
export const reconcileOutcomes = async (em: EntityManager) =>
  em.execute<{ campaignId: number; companyId: number }[]>(
    `with candidates as (
       select s.id, o.id as oid, o.status as ostatus, o.last_error, o.sent_at, o.delivered_at, o.read_at, o.contact_id
         from campaign_shipping s
         join campaigns c on c.id = s.campaign_id
         left join outbound_messages o on o.id = s.outbox_id
        where s.outbox_id is not null
          and (c.status = 'EM_ANDAMENTO' or (c.status = 'FINALIZADA' and c.completed_at > now() - interval '3 days'))
          and ((s.status = 'pending' and (o.id is null or o.status in ('sent', 'failed')))
               or (o.id is not null and o.status <> s.status and o.status in ('sent', 'failed'))
               or (s.delivered_at is null and o.delivered_at is not null)
               or (s.read_at is null and o.read_at is not null)
               or (s.contact_id is null and o.contact_id is not null))
     ),
     moved as (
       update campaign_shipping s set
         status = case when x.oid is null then 'failed' when x.ostatus in ('sent', 'failed') then x.ostatus else s.status end,
         error = case when x.oid is null then 'ERR_NO_WAPP_FOUND' when x.ostatus = 'failed' then left(x.last_error, 100)
                      when x.ostatus = 'sent' then null else s.error end,
         sent_at = coalesce(s.sent_at, x.sent_at), delivered_at = coalesce(s.delivered_at, x.delivered_at),
         read_at = coalesce(s.read_at, x.read_at), contact_id = coalesce(s.contact_id, x.contact_id), updated_at = now()
       from candidates x where s.id = x.id
       returning s.campaign_id, s.company_id)
     select distinct campaign_id as "campaignId", company_id as "companyId" from moved`,
  );

// ---------------------------------------------------------------------------------------------------
// Jobs

/**
 * The sweep (every 20 s and at start): starts every PROGRAMADA campaign whose time has come, overdue ones
 * included (a start job lost, the server down at the time), records outcomes the events missed, tops up
 * running campaigns' windows and finishes those with nothing pending.
 */
export const sweepCampaigns = async (deps: EngineDeps): Promise<void> => {
  const em = deps.systemEm();
  const due = await em.execute<{ id: number; company_id: number }[]>(
    `select id, company_id from campaigns where status = 'PROGRAMADA' and scheduled_at <= now() order by scheduled_at, id limit ?`,
    [SWEEP_STARTS],
  );
  for (const row of due) {
    try {
      await launchCampaign(deps, row.company_id, row.id, 'start');
    } catch (err) {
      deps.logger.error({ err, campaignId: row.id }, 'campaign start failed');
    }
  }
  for (const moved of await reconcileOutcomes(em)) deps.events.emit('campaign.progress', moved);
  const running = await em.execute<{ id: number; company_id: number }[]>(`select id, company_id from campaigns where status = 'EM_ANDAMENTO'`);
  for (const row of running) {
    try {
      await topUpCampaign(deps, row.company_id, row.id);
    } catch (err) {
      deps.logger.error({ err, campaignId: row.id }, 'campaign top-up failed');
    }
    await finishIfDone(deps, row.company_id, row.id);
  }
};

export const registerCampaignJobs = (registry: JobRegistry, deps: EngineDeps): void => {
  registry.define<StartJobData>({
    name: START_JOB,
    // The start is one transaction: a job a crash left locked need not wait 10 minutes (the sweep covers it anyway).
    lockLifetime: 60_000,
    handler: async ({ companyId, campaignId }) => {
      await launchCampaign(deps, companyId, campaignId, 'start');
    },
  });
  registry.define({
    name: SWEEP_JOB,
    every: '20 seconds',
    concurrency: 1,
    lockLifetime: 120_000,
    handler: async () => sweepCampaigns(deps),
  });
};
