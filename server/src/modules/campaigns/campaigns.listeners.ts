import { forCompany } from '../../db/tenant.js';
import type { ModuleContext } from '../app-module.js';
import { Campaign } from './campaign.entity.js';
import { engineDepsOf, finishIfDone, recordOutcomes, recordReply, topUpCampaign, type Outcome } from './campaigns.engine.js';
import { countsOf, EMPTY_COUNTS } from './campaigns.service.js';

/** Outcomes are written at most this often (one statement for all that came meanwhile). */
const FLUSH_MS = 200;
/** Progress is announced at most once a second per campaign (spec 04 section 1's note). */
export const PROGRESS_MS = 1000;

type Moved = { campaignId: number; companyId: number };

/**
 * A campaign's progress, announced with its counts and status only, at most once a second per campaign:
 * the first change at once, the changes of the next second together at its end.
 */
export class ProgressThrottle {
  /** When each campaign's last announcement went out. */
  private readonly last = new Map<number, number>();
  /** Campaigns with an announcement planned or going out; `true` once touched again meanwhile. */
  private readonly planned = new Map<number, boolean>();

  constructor(private readonly say: (moved: Moved) => Promise<void>) {}

  touch(moved: Moved): void {
    if (this.planned.has(moved.campaignId)) {
      this.planned.set(moved.campaignId, true);
      return;
    }
    this.planned.set(moved.campaignId, false);
    const wait = Math.max(0, (this.last.get(moved.campaignId) ?? 0) + PROGRESS_MS - Date.now());
    setTimeout(() => void this.fire(moved), wait).unref();
  }

  private async fire(moved: Moved): Promise<void> {
    this.planned.set(moved.campaignId, false);
    await this.say(moved);
    // Counted from when it went out (reading the counts takes a moment), so two are never closer than PROGRESS_MS.
    this.last.set(moved.campaignId, Date.now());
    const again = this.planned.get(moved.campaignId);
    this.planned.delete(moved.campaignId);
    if (again) this.touch(moved);
  }
}

/**
 * The engine's listeners: the outbox's outcomes of campaign messages (sent, failed, delivered, read) onto the
 * rows, in batches, each batch topping up the campaign's window in the outbox; a customer's message onto the row it answers; the throttled progress; and FINALIZADA
 * when a batch left a campaign with nothing pending.
 */
export const registerCampaignListeners = (ctx: ModuleContext): void => {
  const deps = engineDepsOf(ctx);
  const progress = new ProgressThrottle(async ({ campaignId, companyId }) => {
    try {
      const em = forCompany(ctx.systemEm(), companyId);
      const campaign = await em.findOne(Campaign, campaignId, { fields: ['id', 'status', 'completedAt'] });
      if (!campaign) return;
      const counts = (await countsOf(em, [campaignId])).get(campaignId) ?? { ...EMPTY_COUNTS };
      ctx.events.emit('campaign.counts', { companyId, record: { id: campaign.id, status: campaign.status, completedAt: campaign.completedAt, counts } });
    } catch (err) {
      ctx.logger.warn({ err, campaignId }, 'campaign progress not announced');
    }
  });
  const touch = (moved: Moved[]) => {
    for (const m of moved) progress.touch(m);
  };
  // The sweep's moves (outcomes it copied, a start) come this way.
  ctx.events.on('campaign.progress', ({ companyId, campaignId }) => progress.touch({ companyId, campaignId }));

  let pending: Outcome[] = [];
  let timer: NodeJS.Timeout | undefined;
  const flush = async () => {
    timer = undefined;
    const batch = pending;
    pending = [];
    try {
      const moved = await recordOutcomes(ctx.systemEm(), batch);
      touch(moved);
      for (const m of moved) {
        // Its next rows into the outbox as these leave (a failed top-up is the sweep's).
        await topUpCampaign(deps, m.companyId, m.campaignId);
        await finishIfDone(deps, m.companyId, m.campaignId);
      }
    } catch (err) {
      // The sweep copies them from the outbox's rows.
      ctx.logger.warn({ err, outcomes: batch.length }, 'campaign outcomes not recorded; the sweep will');
    }
  };
  ctx.events.on('outbox.settled', ({ source, outboxId, status, error, contactId }) => {
    if (source.kind !== 'campaign' || source.id === null) return;
    pending.push({ shippingId: source.id, outboxId, status, error, contactId });
    if (!timer) {
      timer = setTimeout(() => void flush(), FLUSH_MS);
      timer.unref();
    }
  });

  ctx.events.on('message.created', async ({ companyId, message, ticket, contact }) => {
    if (message.fromMe || !ticket.whatsappId || !contact) return;
    touch(await recordReply(forCompany(ctx.systemEm(), companyId), companyId, contact.id, ticket.whatsappId));
  });
};
