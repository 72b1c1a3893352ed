import type { PromptEventPayload } from '@atrium/shared';
import type { EventBus } from '../../events/bus.js';
import type { Realtime } from '../../realtime/server.js';

/** `company-{id}-prompt` (spec 02 section 4) with create, update or delete, to that company only. */
export const registerPromptsRealtime = (events: EventBus, realtime: Realtime): void => {
  events.on('prompt.changed', ({ companyId, action, record }) =>
    realtime.toCompany(companyId, 'prompt', { action, record } satisfies PromptEventPayload<Date>),
  );
  events.on('prompt.deleted', ({ companyId, id }) => realtime.toCompany(companyId, 'prompt', { action: 'delete', id } satisfies PromptEventPayload<Date>));
};
