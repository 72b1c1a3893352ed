import type { AppModule } from '../app-module.js';
import './campaigns.events.js';
import { CampaignSchema, CampaignSettingSchema, CampaignShippingSchema } from './campaign.entity.js';
import { engineDepsOf, registerCampaignJobs } from './campaigns.engine.js';
import { registerCampaignListeners } from './campaigns.listeners.js';
import { registerCampaignsRealtime } from './campaigns.realtime.js';
import { campaignsRoutes } from './campaigns.routes.js';

/** The campaigns module's contribution to the app (see modules/app-module.ts). */
export const campaignsModule: AppModule = {
  name: 'campaigns',
  entities: [CampaignSchema, CampaignShippingSchema, CampaignSettingSchema],
  routes: (deps) => campaignsRoutes(deps, engineDepsOf(deps)),
  jobs: (registry, ctx) => registerCampaignJobs(registry, engineDepsOf(ctx)),
  listeners: registerCampaignListeners,
  realtime: registerCampaignsRealtime,
  // Campaigns whose time came while the server was down start now, not at the first sweep.
  started: async ({ scheduler }) => {
    await scheduler.now('campaigns:sweep', {});
  },
};
