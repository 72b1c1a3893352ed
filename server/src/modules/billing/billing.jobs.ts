import type { EntityManager } from '@mikro-orm/postgresql';
import type { EventBus } from '../../events/bus.js';
import type { JobRegistry, Scheduler } from '../../jobs/scheduler.js';
import type { Logger } from '../../logger.js';
import { issueDueInvoices } from './billing.service.js';

export const ISSUE_INVOICES_JOB = 'billing:issue-invoices';

/** The invoice sweep, daily (the original ran it every 5 s); `startBillingJobs` also runs it once at start. */
export const registerBillingJobs = (registry: JobRegistry, systemEm: () => EntityManager, logger: Logger): void => {
  registry.define({
    name: ISSUE_INVOICES_JOB,
    every: '1 day',
    concurrency: 1,
    handler: async () => {
      const issued = await issueDueInvoices(systemEm());
      if (issued.length > 0) logger.info({ count: issued.length }, 'invoices issued');
    },
  });
};

export const startBillingJobs = async (scheduler: Scheduler): Promise<void> => {
  await scheduler.now(ISSUE_INVOICES_JOB, {});
};

/**
 * A company created, or whose due date moved, within 20 days of it gets its invoice at once: waiting for
 * the daily sweep left a new company warned that it expires with nothing to pay (issue 12, item 12).
 */
export const registerBillingListeners = (events: EventBus, systemEm: () => EntityManager, logger: Logger): void => {
  events.on('company.saved', async ({ companyId }) => {
    try {
      const issued = await issueDueInvoices(systemEm(), new Date(), companyId);
      if (issued.length > 0) logger.info({ companyId, count: issued.length }, 'invoice issued on company change');
    } catch (err) {
      // The daily sweep issues it anyway.
      logger.warn({ err, companyId }, 'invoice not issued on company change');
    }
  });
};
