import type { EntityManager } from '@mikro-orm/postgresql';
import type { ChannelManager } from '../../channels/manager.js';
import type { ChannelPeer, ChannelSession, SentMessage } from '../../channels/types.js';
import { camelRow, named } from '../../db/sql.js';
import { forCompany } from '../../db/tenant.js';
import { AppError } from '../../errors.js';
import type { EventBus } from '../../events/bus.js';
import type { JobRegistry } from '../../jobs/scheduler.js';
import type { Logger } from '../../logger.js';
import type { MediaStore } from '../../media/storage.js';
import { Message } from '../messages/message.entity.js';
import { messageView, presentMessages } from '../messages/index.js';
import type { OutboxStatus } from './outbound-message.entity.js';

/**
 * The outbox's senders: one lane per connection, in this process, draining that connection's due rows in
 * order (a chat's messages never overtake each other). A lane runs when a row is queued, when its
 * connection comes up, when a backoff ends, and on a sweep every half minute. Nothing is sent while the
 * connection is down: rows wait, without spending attempts, and go as soon as it connects.
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
}

interface Lane {
  running: boolean;
  again: boolean;
  settled: boolean;
  timer?: NodeJS.Timeout;
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
    if (!lane) this.lanes.set(whatsappId, (lane = { running: false, again: false, settled: false }));
    if (lane.running) {
      lane.again = true;
      return;
    }
    const run = this.run(whatsappId, lane);
    this.running.add(run);
    void run.finally(() => this.running.delete(run));
  }

  /** Wakes every connection with due work (start-up and the periodic sweep). */
  async sweep(): Promise<void> {
    const rows = await this.deps
      .systemEm()
      .execute<{ whatsapp_id: number }[]>(
        `select distinct whatsapp_id from outbound_messages where status = 'sending' or (status = 'pending' and planned_at <= now())`,
      );
    for (const { whatsapp_id } of rows) this.kick(whatsapp_id);
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
    try {
      do {
        lane.again = false;
        const session = this.deps.channels.find(whatsappId);
        if (!session) break;
        if (!lane.settled) {
          await this.settleInterrupted(whatsappId, session);
          lane.settled = true;
        }
        while (!this.stopped && session.canSend() && (await this.sendNext(whatsappId, session)));
      } while (lane.again && !this.stopped);
      if (!this.stopped) await this.wakeLater(whatsappId, lane);
    } catch (err) {
      this.deps.logger.error({ err, whatsappId }, 'outbox lane failed');
    } finally {
      lane.running = false;
    }
  }

  /** Sets the lane's timer for its next planned row (a backoff, a pacing gap, a "typing…" pause). */
  private async wakeLater(whatsappId: number, lane: Lane): Promise<void> {
    const [next] = await this.deps
      .systemEm()
      .execute<{ wait_ms: number | null }[]>(
        `select extract(epoch from (min(planned_at) - now())) * 1000 as wait_ms from outbound_messages
          where whatsapp_id = ? and status = 'pending'`,
        [whatsappId],
      );
    if (next?.wait_ms === null || next?.wait_ms === undefined) return;
    const delay = Math.min(MAX_TIMER_MS, Math.max(0, Number(next.wait_ms)) + 5);
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
    const rows = await em.execute<{ id: number; wid: string; echoed: boolean }[]>(
      `select id, wid, echoed_at is not null as echoed from outbound_messages where whatsapp_id = ? and status = 'sending'`,
      [whatsappId],
    );
    if (rows.length === 0) return;
    // A channel that keeps its own record of what it received answers for certain; without one, only an
    // echo proves a send, and no echo leaves it uncertain.
    const recorded = (await session.sentIds?.(rows.filter((r) => !r.echoed).map((r) => r.wid))) ?? null;
    const record = recorded ? new Set(recorded) : null;
    for (const row of rows) {
      if (row.echoed || record?.has(row.wid)) await this.markSent(row.id, undefined);
      else if (record) await this.retryNow(row.id);
      else await this.markFailed(row.id, 'ERR_SEND_UNCERTAIN');
    }
    this.deps.logger.warn({ whatsappId, settled: rows.length }, 'outbox: sends cut off by a stop settled');
  }

  /** Claims this connection's next due row and sends it; false when none is due. */
  private async sendNext(whatsappId: number, session: ChannelSession): Promise<boolean> {
    const [row] = await this.deps.systemEm().execute<Row[]>(
      `update outbound_messages o set
         status = case when o.presence is not null and not o.presence_sent then 'pending' else 'sending' end,
         attempts = case when o.presence is not null and not o.presence_sent then o.attempts else o.attempts + 1 end,
         planned_at = case when o.presence is not null and not o.presence_sent
                      then now() + make_interval(secs => o.presence_ms / 1000.0) else o.planned_at end,
         presence_sent = o.presence is not null,
         updated_at = now()
       where o.id = (
         select c.id from outbound_messages c
          where c.whatsapp_id = ? and c.status = 'pending' and c.planned_at <= now()
            and not exists (select 1 from outbound_messages e where e.whatsapp_id = c.whatsapp_id and e.chat_key = c.chat_key
                              and e.status in ('pending', 'sending') and e.id < c.id)
          order by c.planned_at, c.id limit 1 for update skip locked)
       returning o.*, o.status = 'pending' as presence_step`,
      [whatsappId],
    );
    if (!row) return false;
    const to: ChannelPeer = { number: row.to_number, lid: row.to_lid, isGroup: row.is_group };
    if (row.presence_step) {
      await session.sendPresence?.(to, row.presence!).catch(() => undefined);
      // The pause counts from when the customer starts seeing "typing…", not from when the row was claimed.
      await this.deps.systemEm().execute(
        `update outbound_messages set planned_at = now() + make_interval(secs => ?) where id = ? and status = 'pending'`,
        [row.presence_ms / 1000, row.id],
      );
      return true;
    }
    try {
      const sent = await this.send(session, row, to);
      await this.markSent(row.id, sent);
    } catch (err) {
      const code = codeOf(err);
      this.deps.logger.warn({ whatsappId, outboxId: row.id, attempt: row.attempts, code }, 'outbox send failed');
      if (PERMANENT.has(code) || row.attempts >= OUTBOX_MAX_ATTEMPTS) await this.markFailed(row.id, code);
      else await this.retryLater(row, code);
    }
    return true;
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

  /** Back in line at once: the channel's own record says it never got there. */
  private async retryNow(id: number): Promise<void> {
    await this.deps.systemEm().execute(`update outbound_messages set status = 'pending', planned_at = now(), updated_at = now() where id = ? and status = 'sending'`, [
      id,
    ]);
  }

  private async retryLater(row: Row, code: string): Promise<void> {
    const wait = OUTBOX_BACKOFF_MS[Math.min(row.attempts, OUTBOX_BACKOFF_MS.length) - 1];
    await this.deps.systemEm().execute(
      `update outbound_messages set status = 'pending', planned_at = now() + make_interval(secs => ?), last_error = ?, updated_at = now()
       where id = ? and status = 'sending'`,
      [wait / 1000, code, row.id],
    );
  }

  /** The row sent, and its conversation copy one tick further (the channel's receipts move it on). */
  private async markSent(id: number, sent: SentMessage | undefined): Promise<void> {
    await this.settle(
      `update outbound_messages set status = 'sent', sent_at = now(), last_error = null, updated_at = now()
        where id = :id and status = 'sending' returning id, company_id, wid, message_id`,
      `ack = greatest(m.ack, 1), send_error = null, raw = coalesce(:raw::jsonb, m.raw)`,
      { id, raw: sent?.raw === undefined ? null : JSON.stringify(sent.raw) },
      'sent',
      null,
    );
  }

  private async markFailed(id: number, code: string): Promise<void> {
    await this.settle(
      `update outbound_messages set status = 'failed', last_error = :code, updated_at = now()
        where id = :id and status in ('sending', 'pending') returning id, company_id, wid, message_id`,
      `send_error = :code`,
      { id, code },
      'failed',
      code,
    );
  }

  /**
   * One statement moves the row and its conversation copy and answers what the clients are told: the
   * message as the API shows it and where its ticket sits (a message without a ticket is nobody's to hear).
   */
  private async settle(
    outboxUpdate: string,
    messageSet: string,
    values: Record<string, unknown>,
    status: 'sent' | 'failed',
    error: string | null,
  ): Promise<void> {
    const [row] = await this.deps.systemEm().execute<
      {
        id: number;
        company_id: number;
        wid: string;
        message: Record<string, unknown> | null;
        user: { id: number; name: string } | null;
        placement: { status: string; queue_id: number | null; user_id: number | null } | null;
      }[]
    >(
      ...named(
        `with o as (${outboxUpdate}),
              m as (update messages m set ${messageSet}, updated_at = now() from o where m.id = o.message_id returning m.*)
         select o.id, o.company_id, o.wid, to_jsonb(m) - 'raw' as message,
                (select json_build_object('id', u.id, 'name', u.name) from users u where u.id = m.user_id) as "user",
                (select json_build_object('status', t.status, 'queue_id', t.queue_id, 'user_id', t.user_id) from tickets t where t.id = m.ticket_id) as placement
           from o left join m on true`,
        values,
      ),
    );
    if (!row) return;
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
    this.deps.events.emit('outbox.settled', { companyId: row.company_id, outboxId: row.id, wid: row.wid, status, error });
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
