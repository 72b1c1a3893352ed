import type { EntityManager } from '@mikro-orm/postgresql';
import type { ChannelManager } from '../../channels/manager.js';
import type { ChannelPeer, ChannelSession, SentMessage } from '../../channels/types.js';
import { camelRow, executePrepared } from '../../db/sql.js';
import { forCompany } from '../../db/tenant.js';
import { AppError } from '../../errors.js';
import type { EventBus } from '../../events/bus.js';
import type { JobRegistry } from '../../jobs/scheduler.js';
import type { Logger } from '../../logger.js';
import type { MediaStore } from '../../media/storage.js';
import { Message } from '../messages/message.entity.js';
import { messageView, presentMessages } from '../messages/index.js';
import type { OutboxStatus } from './outbound-message.entity.js';
import { announceOutcome, OUTCOME_COLUMNS, writeBulkCopies, type OutcomeRow } from './outbox.js';

/**
 * The outbox's senders: one lane per connection, in this process, draining that connection's due rows in
 * order: a conversation's rows before bulk ones, a chat's messages never overtaking each other, paced rows
 * through the connection's pacing gate. A lane runs when a row is queued, when its connection comes up,
 * when a backoff or a pacing gap ends, and when the sweep (every half minute, in whichever process runs
 * the job) wakes the process that runs the connection. Nothing is sent while the connection is down: rows
 * wait, without spending attempts, and go as soon as it connects.
 *
 * Errors are data: a transient one (connection lost mid-send, timeout) puts the row back with a backoff,
 * up to OUTBOX_MAX_ATTEMPTS; a permanent one (not on WhatsApp, blocked) fails it at once with the reason,
 * shown on the conversation's copy. A row a crash left in `sending` is settled by its message id: sent if
 * the channel echoed it or recorded it; sent again when the channel keeps its own record and it is not there;
 * otherwise (no echo, no record) failed as uncertain, for the agent to resend — never sent blindly twice.
 */
export interface OutboxSenderDeps {
  systemEm: () => EntityManager;
  channels: ChannelManager;
  media: MediaStore;
  events: EventBus;
  logger: Logger;
}

export const OUTBOX_MAX_ATTEMPTS = 5;
/** Waits after failed attempt 1, 2, ... (ms). */
export const OUTBOX_BACKOFF_MS = [2_000, 10_000, 60_000, 300_000] as const;
/** Errors that will not go away by trying again. */
const PERMANENT = new Set(['ERR_WAPP_INVALID_CONTACT', 'ERR_WAPP_CHECK_CONTACT', 'ERR_MEDIA_NOT_FOUND', 'ERR_NO_WAPP_FOUND']);
/**
 * Rows a lane claims in one statement. One row a claim, a connection's throughput was bound by round trips
 * (a claim, the send and a settle a row); a batch pays one claim and one settle for all its rows. A batch
 * holds at most one row of a chat (a chat's later row waits for the earlier one to settle), and a paced
 * row whose gate spaces sends is claimed alone, as before. Kept moderate: a crash leaves at most
 * LANE_BATCHES batches in `sending` to settle, and WhatsApp without an echo fails those as uncertain.
 */
export const LANE_BATCH = 32;
/** Batches a lane has under way at once: one is claimed while another is sent and settled. */
export const LANE_BATCHES = 2;
/** Sends of one batch in flight at once (each to another chat). */
export const BATCH_SENDS = 16;
/** The longest a lane sleeps before looking again by itself (the sweep covers the rest). */
const MAX_TIMER_MS = 60_000;

interface Row {
  id: number;
  company_id: number;
  whatsapp_id: number;
  ticket_id: number | null;
  message_id: number | null;
  to_number: string | null;
  to_lid: string | null;
  is_group: boolean;
  wid: string;
  body: string;
  media_url: string | null;
  media_name: string | null;
  mimetype: string | null;
  voice_note: boolean;
  quoted_wid: string | null;
  quoted_from_me: boolean;
  presence: 'composing' | 'recording' | null;
  presence_ms: number;
  status: OutboxStatus;
  attempts: number;
  /** This claim was the "typing…" step; the message itself goes when the pause ends. */
  presence_step: boolean;
  /** Its place in the claim's order, within its batch. */
  ord: number;
}

/** A claimed row's outcome, settled with its batch. */
interface Settlement {
  id: number;
  kind: 'sent' | 'failed' | 'retry' | 'again';
  /** The error (failed, retry). */
  code?: string;
  /** Seconds until it is tried again (retry). */
  wait?: number;
  /** The channel's own copy of the sent message. */
  raw?: unknown;
  /** A bulk row whose contact and copy in the contact's history are written as it settles. */
  copy?: boolean;
}

/** A bulk row has its copy written when it settles (outbox.ts, writeBulkCopies). */
const needsCopy = (row: Pick<Row, 'message_id' | 'ticket_id'>) => row.message_id === null && row.ticket_id === null;

/**
 * The claim: this connection's next rows (up to a batch), in one statement.
 * - Due (planned_at passed), a conversation's rows before bulk ones, bulk rows by their place in their run
 *   (two campaigns alternate), then by time and id.
 * - A chat's earlier row of the same or a higher priority holds it while that row is in flight or started
 *   (due, in backoff, or past its "typing…"); a row planned for later holds nothing meanwhile. So a batch
 *   has at most one row of a chat: the chat's next one waits until this one is settled.
 * - A paced row only while the connection's gate is open and its policy's window and daily cap allow; taking
 *   one moves the gate on by the policy's gap (±30%), or its long gap every N sends. The "typing…" step
 *   passes the gate and moves it on by the gap, or by its own pause when that is longer; the message after it
 *   does not pass the gate again. So the next "typing…" starts the gap after this one: messages with pauses
 *   alike leave the gap apart, "typing…" included (the spec's interval between sends), and two typed
 *   messages never come due together (the next one's typing starts only once this message is due).
 * - Such a gated row goes alone: first in the order, it is the whole batch; later in it, the batch stops
 *   before it. Only a policy that spaces nothing (no gap, no long gap, no cap: a campaign with pacing off)
 *   lets its rows through the gate many at a claim, each counted.
 * A row with "typing…" not shown yet is taken twice: first for the presence (it stays pending, planned the
 * pause ahead), then for the message.
 */
const CLAIM = `
  with gate as (
    -- Locked: the lane's concurrent claims pass the gate one at a time, each seeing where the last left it.
    select next_at, streak, day, day_count from outbox_pacing_state where whatsapp_id = ? for update
  ),
  policies as (
    select p.id, p.company_id, p.gap_ms, p.long_gap_every, p.long_gap_ms, (now() at time zone co.timezone)::date as today,
           p.long_gap_every > 0 and coalesce((select streak from gate), 0) + 1 >= p.long_gap_every as long_gap,
           p.gap_ms = 0 and (p.long_gap_every = 0 or p.long_gap_ms = 0) and p.daily_cap = 0 as free
      from outbox_pacing p join companies co on co.id = p.company_id
     where p.whatsapp_id = ?
       and coalesce((select next_at <= now() from gate), true)
       and (p.daily_cap = 0
            or coalesce((select day_count from gate where day = (now() at time zone co.timezone)::date), 0) < p.daily_cap)
       and (p.window_from is null or p.window_to is null or p.window_from = p.window_to
            or (select case when p.window_from < p.window_to then m >= p.window_from and m < p.window_to
                            else m >= p.window_from or m < p.window_to end
                  from (select extract(hour from now() at time zone co.timezone) * 60
                               + extract(minute from now() at time zone co.timezone) as m) local))
  ),
  pick as (
    select c.id, c.pacing_id, c.pacing_id is not null and not c.presence_sent as gated,
           c.presence is not null and not c.presence_sent as typing, c.presence_ms, c.priority, c.bulk_seq, c.planned_at
      from outbound_messages c
     where c.whatsapp_id = ? and c.status = 'pending' and c.planned_at <= now()
       and (c.pacing_id is null or c.presence_sent or c.pacing_id in (select id from policies))
       -- Ordered, limited and kept a subplan (offset 0): it can only go by the chat index, whatever the
       -- statistics say right after a campaign wrote thousands of rows (else one claim scans them all).
       and not exists (
         select 1 from outbound_messages e
          where e.whatsapp_id = c.whatsapp_id and e.chat_key = c.chat_key and e.id < c.id and e.priority <= c.priority
            and (e.status = 'sending'
                 or (e.status = 'pending' and (e.planned_at <= now() or e.attempts > 0 or e.presence_sent)))
          order by e.id limit 1 offset 0)
     order by c.priority, c.bulk_seq, c.planned_at, c.id
     limit ?
     for update of c skip locked
  ),
  ranked as (
    select pick.*, row_number() over (order by pick.priority, pick.bulk_seq, pick.planned_at, pick.id) as ord,
           -- Spaced by its gate (a "typing…" too: two typed messages never come due together).
           pick.gated and (pick.typing or not coalesce(p.free, false)) as alone
      from pick left join policies p on p.id = pick.pacing_id
  ),
  chosen as (
    select * from ranked r
     where r.ord = 1 or r.ord < coalesce((select min(ord) from ranked where alone), 2147483647)
  ),
  gated as (
    select chosen.*, row_number() over (order by ord) as n, count(*) over () as k from chosen where gated
  ),
  paced as (
    insert into outbox_pacing_state as g (whatsapp_id, company_id, next_at, streak, day, day_count, last_at)
    select ?, p.company_id,
           -- From this "typing…" to the next one: the gap (so from message to message with pauses alike), never
           -- less than this one's pause (the next typing starts once this message is due).
           now() + make_interval(secs => greatest(
             (case when p.long_gap then greatest(p.long_gap_ms, p.gap_ms) else p.gap_ms end) * (0.7 + random() * 0.6) / 1000.0,
             (case when first.typing then first.presence_ms else 0 end) / 1000.0)),
           case when p.long_gap then 0 else coalesce((select streak from gate), 0) + first.k end,
           p.today,
           case when (select day from gate) = p.today then (select day_count from gate) + first.k else first.k end,
           now()
      -- One row moves the gate for the batch: the gated row that goes alone, or the first of a free policy's.
      from gated first join policies p on p.id = first.pacing_id
     where first.n = 1
    on conflict (whatsapp_id) do update set next_at = excluded.next_at, streak = excluded.streak, day = excluded.day,
      day_count = excluded.day_count, last_at = excluded.last_at
  )
  update outbound_messages o set
    status = case when o.presence is not null and not o.presence_sent then 'pending' else 'sending' end,
    attempts = case when o.presence is not null and not o.presence_sent then o.attempts else o.attempts + 1 end,
    planned_at = case when o.presence is not null and not o.presence_sent
                 then now() + make_interval(secs => o.presence_ms / 1000.0) else o.planned_at end,
    presence_sent = o.presence is not null,
    updated_at = now()
  from chosen
  where o.id = chosen.id
  returning o.*, o.status = 'pending' as presence_step, chosen.ord::int as ord`;

interface Lane {
  running: boolean;
  again: boolean;
  /**
   * The session whose start this lane has settled (rows a stopped session or a dead process left in
   * `sending`). A session stopped here and started again (the connection moved to another process and
   * back) is a new one: settled again.
   */
  settledFor?: ChannelSession;
  timer?: NodeJS.Timeout;
  /** The run in progress (tests wait for the lane to be idle). */
  current?: Promise<void>;
  /** The lane's last claim: the next one waits for it. */
  claiming: Promise<unknown>;
}

const codeOf = (err: unknown): string => (err instanceof AppError ? err.code : 'ERR_SENDING_WAPP_MSG');

export class OutboxSender {
  private readonly lanes = new Map<number, Lane>();
  private readonly running = new Set<Promise<void>>();
  private stopped = false;

  constructor(private readonly deps: OutboxSenderDeps) {}

  /** Wakes the connection's lane (a row queued, the connection up, a backoff over). */
  kick(whatsappId: number): void {
    if (this.stopped) return;
    let lane = this.lanes.get(whatsappId);
    if (!lane) this.lanes.set(whatsappId, (lane = { running: false, again: false, claiming: Promise.resolve() }));
    if (lane.running) {
      lane.again = true;
      return;
    }
    const run = this.run(whatsappId, lane);
    lane.current = run;
    this.running.add(run);
    void run.finally(() => this.running.delete(run));
  }

  /** Resolves once the connection's lane has nothing running (what it could send now, it has). */
  async idle(whatsappId: number): Promise<void> {
    for (let lane = this.lanes.get(whatsappId); lane?.running; ) await lane.current;
  }

  /**
   * Wakes every connection with due work (start-up and the periodic sweep): the process that runs it,
   * which may be another one (the job runs in one process of several).
   */
  async sweep(): Promise<void> {
    const rows = await this.deps
      .systemEm()
      .execute<{ whatsapp_id: number }[]>(
        `select distinct whatsapp_id from outbound_messages where status = 'sending' or (status = 'pending' and planned_at <= now())`,
      );
    for (const { whatsapp_id } of rows) this.deps.channels.wakeOwner(whatsapp_id, () => this.kick(whatsapp_id));
  }

  /** Stops taking new rows and waits for the sends in flight. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const lane of this.lanes.values()) clearTimeout(lane.timer);
    await Promise.all([...this.running]);
  }

  private async run(whatsappId: number, lane: Lane): Promise<void> {
    lane.running = true;
    clearTimeout(lane.timer);
    lane.timer = undefined;
    let claimedFrom: Date | undefined;
    try {
      for (;;) {
        do {
          lane.again = false;
          const session = this.deps.channels.find(whatsappId);
          if (!session) {
            lane.settledFor = undefined;
            break;
          }
          if (lane.settledFor !== session) {
            await this.settleInterrupted(whatsappId, session);
            lane.settledFor = session;
          }
          // The database's time before the claims: a row that comes due while the last claim finds nothing is
          // still looked at again (see wakeLater).
          const [{ at }] = await this.deps.systemEm().execute<{ at: Date }[]>('select clock_timestamp() as at');
          claimedFrom = at;
          // A few batches at once, each claimed in order: a chat's rows still go one by one (a row in flight
          // holds its chat), while one batch's claim overlaps another's sends and settle.
          const drain = async () => {
            while (!this.stopped && session.canSend() && (await this.sendBatch(whatsappId, session, lane)));
          };
          const drained = await Promise.allSettled(Array.from({ length: LANE_BATCHES }, drain));
          const failed = drained.find((d) => d.status === 'rejected');
          if (failed) throw failed.reason;
        } while (lane.again && !this.stopped);
        if (this.stopped || !claimedFrom) break;
        await this.wakeLater(whatsappId, lane, claimedFrom);
        // A kick while the timer was being set (a row queued meanwhile) found the lane running and only
        // asked it to go round again: it does, or that row would wait for the sweep.
        if (!lane.again) break;
        clearTimeout(lane.timer);
        lane.timer = undefined;
      }
    } catch (err) {
      // A statement that failed (a database error) may have been a batch's settle: its rows, sent or not,
      // are left `sending`. Nothing of this lane is in flight now, so its next run settles them as a dead
      // process's (by their message ids) before it claims again; otherwise they would wait for a restart.
      lane.settledFor = undefined;
      this.deps.logger.error({ err, whatsappId }, 'outbox lane failed');
    } finally {
      lane.running = false;
    }
  }

  /**
   * Sets the lane's timer for when a row may become claimable: the next planned row (a backoff, a "typing…"
   * pause, a planned send) or the pacing gate's next opening. Rows due but held (a paced row outside its
   * window or over its day's cap, a chat behind a row in backoff, a connection that cannot send now) are
   * looked at again within a minute, never in a tight loop. A row planned after `claimedFrom` (when the last
   * round of claims began) counts as next even if it is due by now: it may have come due just after the
   * last claim looked; the round it wakes sees it, and the next round's `claimedFrom` is past it.
   */
  private async wakeLater(whatsappId: number, lane: Lane, claimedFrom: Date): Promise<void> {
    const [next] = await executePrepared<{ planned_ms: number | null; gate_ms: number | null; waiting: boolean }>(
      this.deps.systemEm(),
      'outbox_wake_later',
      `select extract(epoch from (select min(planned_at) from outbound_messages
                                   where whatsapp_id = ? and status = 'pending' and planned_at > ?) - now()) * 1000 as planned_ms,
              extract(epoch from (select next_at from outbox_pacing_state where whatsapp_id = ? and next_at > now()) - now()) * 1000 as gate_ms,
              exists (select 1 from outbound_messages where whatsapp_id = ? and status = 'pending' and planned_at <= now()) as waiting`,
      [whatsappId, claimedFrom, whatsappId, whatsappId],
    );
    if (!next) return;
    const candidates = [next.planned_ms, next.waiting ? next.gate_ms : null].filter((ms): ms is number => ms !== null).map(Number);
    if (candidates.length === 0 && !next.waiting) return;
    const delay = candidates.length > 0 ? Math.min(MAX_TIMER_MS, Math.max(0, Math.min(...candidates)) + 5) : MAX_TIMER_MS;
    lane.timer = setTimeout(() => this.kick(whatsappId), delay);
    lane.timer.unref();
  }

  /**
   * Rows an earlier process left in `sending`: sent if the channel echoed or recorded their id, pending again
   * if the channel's own record shows it never arrived, otherwise failed as uncertain. Under-sending is
   * preferred to sending twice.
   */
  private async settleInterrupted(whatsappId: number, session: ChannelSession): Promise<void> {
    const em = this.deps.systemEm();
    const rows = await em.execute<{ id: number; wid: string; echoed: boolean; message_id: number | null; ticket_id: number | null }[]>(
      `select id, wid, echoed_at is not null as echoed, message_id, ticket_id from outbound_messages where whatsapp_id = ? and status = 'sending'`,
      [whatsappId],
    );
    if (rows.length === 0) return;
    // A channel that keeps its own record of what it received answers for certain; without one, only an
    // echo proves a send, and no echo leaves it uncertain.
    const recorded = (await session.sentIds?.(rows.filter((r) => !r.echoed).map((r) => r.wid))) ?? null;
    const record = recorded ? new Set(recorded) : null;
    await this.settleBatch(
      rows.map((row): Settlement => {
        const copy = needsCopy(row);
        if (row.echoed || record?.has(row.wid)) return { id: row.id, kind: 'sent', copy };
        if (record) return { id: row.id, kind: 'again' };
        return { id: row.id, kind: 'failed', code: 'ERR_SEND_UNCERTAIN', copy };
      }),
    );
    this.deps.logger.warn({ whatsappId, settled: rows.length }, 'outbox: sends cut off by a stop settled');
  }

  /**
   * Claims a batch of this connection's due rows, sends them (a few at once: each is another chat's) and
   * settles every outcome in one statement; false when none is due. The rows are `sending` from the claim's
   * commit until the settle: a crash between the two leaves them for settleInterrupted, never to go blindly again.
   */
  private async sendBatch(whatsappId: number, session: ChannelSession, lane: Lane): Promise<boolean> {
    // A lane's claims go one after another (the batches' sends and settles overlap them): each takes whole
    // rows in order instead of two claims splitting the due rows between them.
    const claim = lane.claiming.then(() =>
      executePrepared<Row>(this.deps.systemEm(), 'outbox_claim_batch', CLAIM, [whatsappId, whatsappId, whatsappId, LANE_BATCH, whatsappId]),
    );
    lane.claiming = claim.catch(() => undefined);
    const rows = await claim;
    if (rows.length === 0) return false;
    rows.sort((x, y) => x.ord - y.ord);
    const outcomes: Settlement[] = [];
    let next = 0;
    const worker = async () => {
      while (next < rows.length) {
        const row = rows[next++];
        const to: ChannelPeer = { number: row.to_number, lid: row.to_lid, isGroup: row.is_group };
        if (row.presence_step) {
          await this.presenceStep(session, row, to);
          continue;
        }
        try {
          const sent = await this.send(session, row, to);
          outcomes.push({ id: row.id, kind: 'sent', raw: sent?.raw, copy: needsCopy(row) });
        } catch (err) {
          const code = codeOf(err);
          this.deps.logger.warn({ whatsappId, outboxId: row.id, attempt: row.attempts, code }, 'outbox send failed');
          if (PERMANENT.has(code) || row.attempts >= OUTBOX_MAX_ATTEMPTS) outcomes.push({ id: row.id, kind: 'failed', code, copy: needsCopy(row) });
          else outcomes.push({ id: row.id, kind: 'retry', code, wait: OUTBOX_BACKOFF_MS[Math.min(row.attempts, OUTBOX_BACKOFF_MS.length) - 1] / 1000 });
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(BATCH_SENDS, rows.length) }, worker));
    await this.settleBatch(outcomes);
    return true;
  }

  /** The "typing…" step of a row: shown now, and the message planned the pause ahead. */
  private async presenceStep(session: ChannelSession, row: Row, to: ChannelPeer): Promise<void> {
    await session.sendPresence?.(to, row.presence!).catch(() => undefined);
    // The pause counts from when the customer starts seeing "typing…", not from when the row was claimed;
    // so does the pacing gate this claim moved (the claim stamped updated_at): the next paced row starts
    // typing the gap after this message is due, however long the presence took to go.
    await this.deps.systemEm().execute(
      `with r as (
         update outbound_messages set planned_at = now() + make_interval(secs => ?) where id = ? and status = 'pending'
         returning pacing_id, updated_at)
       update outbox_pacing_state g set next_at = g.next_at + (now() - r.updated_at)
         from r where g.whatsapp_id = ? and r.pacing_id is not null`,
      [row.presence_ms / 1000, row.id, row.whatsapp_id],
    );
  }

  private async send(session: ChannelSession, row: Row, to: ChannelPeer): Promise<SentMessage> {
    const quoted = row.quoted_wid ? await this.quotedRef(row) : undefined;
    if (!row.media_url) return session.sendText({ id: row.wid, to, text: row.body, quoted });
    const data = await this.deps.media.read(row.company_id, row.media_url).catch((err: unknown) => {
      // A missing file fails the row; a media store that does not answer is retried like the channel.
      throw err instanceof AppError ? new AppError('ERR_MEDIA_NOT_FOUND') : err;
    });
    return session.sendMedia({
      id: row.wid,
      to,
      data,
      mimetype: row.mimetype ?? 'application/octet-stream',
      filename: row.media_name ?? row.media_url,
      caption: row.body,
      voiceNote: row.voice_note,
      quoted,
    });
  }

  /** The quoted message as the channel needs it: its stored original when we have one. */
  private async quotedRef(row: Row) {
    const em = forCompany(this.deps.systemEm(), row.company_id);
    const quoted = await em.findOne(Message, { whatsappId: row.whatsapp_id, wid: row.quoted_wid }, { populate: ['raw'] });
    return { id: row.quoted_wid!, fromMe: row.quoted_from_me, body: quoted?.body, raw: quoted?.raw ?? undefined };
  }

  /**
   * One statement settles a batch: each row and its conversation copy move (sent: the copy one tick further,
   * the channel's receipts move it on; failed: the copy shows why; retry: back in line after its backoff;
   * again: back in line at once, the channel's own record says it never got there), and it answers what
   * the clients are told: the message as the API shows it and where its ticket sits (a message without a
   * ticket is nobody's to hear in the conversation), and the outcome, announced for every sent or failed
   * row with its correlation. A row no longer `sending` (a late error receipt failed it meanwhile) is left alone.
   */
  private async settleBatch(outcomes: Settlement[]): Promise<void> {
    if (outcomes.length === 0) return;
    // Bulk rows first get their contact and their copy in its history (a statement of its own: the settle
    // below moves the copy on with the row). A crash between the two leaves the row `sending`, with its copy.
    let copies = outcomes.filter((o) => o.copy && (o.kind === 'sent' || o.kind === 'failed')).map((o) => o.id);
    for (let round = 0; copies.length > 0 && round < 3; round++) copies = await writeBulkCopies(this.deps.systemEm(), copies);
    if (copies.length > 0) this.deps.logger.warn({ outboxIds: copies }, 'outbox: bulk rows settled without their copy in the history');
    const input = outcomes.map((o) => ({
      id: o.id,
      kind: o.kind,
      code: o.code ?? null,
      wait: o.wait ?? 0,
      raw: o.raw === undefined ? null : o.raw,
    }));
    const rows = await executePrepared<
      OutcomeRow & {
        kind: Settlement['kind'];
        message: Record<string, unknown> | null;
        user: { id: number; name: string } | null;
        placement: { status: string; queue_id: number | null; user_id: number | null } | null;
      }
    >(
      this.deps.systemEm(),
      'outbox_settle_batch',
      `with i as (
         select * from jsonb_to_recordset(?::jsonb) as i(id int, kind text, code text, wait float8, raw jsonb)
       ),
       o as (
         update outbound_messages o set
           status = case i.kind when 'sent' then 'sent' when 'failed' then 'failed' else 'pending' end,
           sent_at = case when i.kind = 'sent' then now() else o.sent_at end,
           failed_at = case when i.kind = 'failed' then now() else o.failed_at end,
           last_error = case i.kind when 'sent' then null when 'again' then o.last_error else i.code end,
           planned_at = case i.kind when 'retry' then now() + make_interval(secs => i.wait) when 'again' then now() else o.planned_at end,
           updated_at = now()
         from i
         where o.id = i.id and (o.status = 'sending' or (i.kind = 'failed' and o.status = 'pending'))
         returning ${OUTCOME_COLUMNS.split(', ').map((c) => `o.${c}`).join(', ')}, i.kind, i.raw
       ),
       m as (
         update messages m set
           ack = case when o.kind = 'sent' then greatest(m.ack, 1) else m.ack end,
           send_error = case when o.kind = 'sent' then null else o.last_error end,
           raw = case when o.kind = 'sent' then coalesce(o.raw, m.raw) else m.raw end,
           updated_at = now()
         from o where m.id = o.message_id and o.kind in ('sent', 'failed')
         returning m.*
       )
       select ${OUTCOME_COLUMNS.split(', ').map((c) => `o.${c}`).join(', ')}, o.kind,
              case when m.ticket_id is not null then to_jsonb(m) - 'raw' end as message,
              (select json_build_object('id', u.id, 'name', u.name) from users u where u.id = m.user_id and m.ticket_id is not null) as "user",
              (select json_build_object('status', t.status, 'queue_id', t.queue_id, 'user_id', t.user_id) from tickets t where t.id = m.ticket_id) as placement
         from o left join m on m.id = o.message_id`,
      [JSON.stringify(input)],
    );
    const order = new Map(outcomes.map((o, i) => [o.id, i]));
    rows.sort((x, y) => order.get(x.id)! - order.get(y.id)!);
    for (const row of rows) {
      if (row.kind !== 'sent' && row.kind !== 'failed') continue;
      if (row.message && row.placement) {
        const message = camelRow<Message>(row.message);
        const em = forCompany(this.deps.systemEm(), row.company_id);
        // A quoted message is shown in full, with its sender: the general presenter reads it.
        const [presented] = message.quotedMsgId
          ? await presentMessages(em, this.deps.media, [message.id])
          : [messageView(this.deps.media, message, { user: row.user ?? undefined }, null)];
        this.deps.events.emit('message.updated', {
          companyId: row.company_id,
          message: presented,
          placement: {
            id: message.ticketId!,
            companyId: row.company_id,
            status: row.placement.status,
            queueId: row.placement.queue_id,
            userId: row.placement.user_id,
          },
        });
      }
      announceOutcome(this.deps.events, row, row.kind);
    }
  }
}

/** The sweep that catches what no kick reached (a timer lost with a restart, a row due meanwhile). */
export const registerOutboxJobs = (registry: JobRegistry, sender: OutboxSender): void => {
  registry.define({
    name: 'outbox:sweep',
    every: '30 seconds',
    concurrency: 1,
    handler: async () => {
      await sender.sweep();
    },
  });
};
