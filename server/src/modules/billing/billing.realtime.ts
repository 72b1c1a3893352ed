import type { EventBus } from '../../events/bus.js';
import type { Realtime } from '../../realtime/server.js';

/** What clients hear (spec 01 section 7, spec 03 section 14): a payment concluded. */
export const registerBillingRealtime = (events: EventBus, realtime: Realtime): void => {
  events.on('payment.concluded', ({ companyId, company }) => realtime.toCompany(companyId, 'payment', { action: 'CONCLUIDA', company }));
};
