import type { ChannelManager } from '../../channels/manager.js';
import type { EventBus } from '../../events/bus.js';
import type { MediaStore } from '../../media/storage.js';

/**
 * What a deleted company leaves outside the database (its rows go with it): the running sessions of its
 * connections are stopped and its media files removed.
 */
export const registerCompanyCleanup = (events: EventBus, deps: { channels: ChannelManager; media: MediaStore }): void => {
  events.on('company.deleted', async ({ companyId }) => {
    await deps.channels.stopCompany(companyId);
    await deps.media.removeCompany(companyId);
  });
};
