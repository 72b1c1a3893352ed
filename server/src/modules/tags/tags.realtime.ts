import type { TagEventPayload } from '@atrium/shared';
import type { EventBus } from '../../events/bus.js';
import type { Realtime } from '../../realtime/server.js';

/** What clients hear of tags (spec 02 section 4): `company-{id}-tag` to the whole company, whose tags they are. */
export const registerTagsRealtime = (events: EventBus, realtime: Realtime): void => {
  events.on('tag.changed', ({ companyId, action, tag }) =>
    realtime.toCompany(companyId, 'tag', { action, tag } satisfies TagEventPayload<Date>),
  );
  events.on('tag.deleted', ({ companyId, tagId }) =>
    realtime.toCompany(companyId, 'tag', { action: 'delete', tagId } satisfies TagEventPayload<Date>),
  );
};
