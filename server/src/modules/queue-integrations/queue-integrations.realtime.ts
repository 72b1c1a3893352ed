import type { QueueIntegrationEventPayload } from '@atrium/shared';
import type { EventBus } from '../../events/bus.js';
import type { Realtime } from '../../realtime/server.js';

/** `company-{id}-queueIntegration` (spec 02 section 4) with create, update or delete, to that company only. */
export const registerQueueIntegrationsRealtime = (events: EventBus, realtime: Realtime): void => {
  events.on('queueIntegration.changed', ({ companyId, action, record }) =>
    realtime.toCompany(companyId, 'queueIntegration', { action, record } satisfies QueueIntegrationEventPayload<Date>),
  );
  events.on('queueIntegration.deleted', ({ companyId, id }) =>
    realtime.toCompany(companyId, 'queueIntegration', { action: 'delete', id } satisfies QueueIntegrationEventPayload<Date>),
  );
};
