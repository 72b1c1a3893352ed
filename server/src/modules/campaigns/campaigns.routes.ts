import Router from '@koa/router';
import type Koa from 'koa';
import {
  CAMPAIGN_MEDIA_MAX_BYTES,
  CAMPAIGN_MEDIA_TYPES,
  campaignShippingQuerySchema,
  createCampaignSchema,
  idParamSchema,
  listQuerySchema,
  saveCampaignSettingsSchema,
  updateCampaignSchema,
} from '@atrium/shared';
import { adminOnly } from '../../http/auth-middleware.js';
import type { RouteDeps } from '../../http/route-deps.js';
import type { AppState } from '../../http/types.js';
import { mediaOf, requiredFile, upload } from '../../http/upload.js';
import { parse } from '../../http/validate.js';
import { assertPlanFeature } from '../plans/index.js';
import { listCampaignSettings, saveCampaignSettings } from './campaign-settings.js';
import { cancelCampaign, restartCampaign, type EngineDeps } from './campaigns.engine.js';
import { campaignReport, campaignShipping, campaignShippingCsv } from './campaigns.report.js';
import {
  attachCampaignMedia,
  createCampaign,
  deleteCampaign,
  getCampaign,
  listCampaigns,
  removeCampaignMedia,
  updateCampaign,
} from './campaigns.service.js';

/** A file name for Content-Disposition: letters, digits and a few marks. */
const fileNameOf = (name: string) => name.normalize('NFD').replace(/[^\w.-]+/g, '_').slice(0, 80) || 'campaign';

/**
 * Campaigns, their settings and reports (spec 02 section 7): the company's admins (the menu's admin
 * section), with the plan's campaigns flag enforced here (spec 04 section 0's note).
 */
export const campaignsRoutes = (deps: RouteDeps, engine: EngineDeps) => {
  const planned: Koa.Middleware<AppState> = async (ctx, next) => {
    await assertPlanFeature(ctx.state.em, ctx.state.actor.companyId, 'useCampaigns');
    await next();
  };
  const cDeps = { media: deps.media, scheduler: deps.scheduler, logger: deps.logger };
  const id = (params: unknown) => parse(idParamSchema, params).id;

  const campaigns = new Router<AppState>({ prefix: '/campaigns' });
  campaigns.use(deps.auth, adminOnly, planned);
  campaigns.get('/', async (ctx) => {
    ctx.body = await listCampaigns(ctx.state.service, cDeps, parse(listQuerySchema, ctx.query));
  });
  campaigns.get('/:id', async (ctx) => {
    ctx.body = await getCampaign(ctx.state.service, cDeps, id(ctx.params));
  });
  campaigns.post('/', async (ctx) => {
    ctx.status = 201;
    ctx.body = await createCampaign(ctx.state.service, cDeps, parse(createCampaignSchema, ctx.request.body));
  });
  campaigns.put('/:id', async (ctx) => {
    const campaignId = id(ctx.params);
    ctx.body = await updateCampaign(ctx.state.service, cDeps, campaignId, parse(updateCampaignSchema, ctx.request.body));
  });
  campaigns.delete('/:id', async (ctx) => {
    await deleteCampaign(ctx.state.service, cDeps, id(ctx.params));
    ctx.body = { message: 'Campaign deleted' };
  });
  campaigns.post(
    '/:id/media-upload',
    upload({ fields: ['file'], maxFiles: 1, maxBytes: CAMPAIGN_MEDIA_MAX_BYTES, accept: [...CAMPAIGN_MEDIA_TYPES] }),
    async (ctx) => {
      const campaignId = id(ctx.params);
      ctx.body = await attachCampaignMedia(ctx.state.service, cDeps, campaignId, mediaOf(requiredFile(ctx, 'file')));
    },
  );
  campaigns.delete('/:id/media-upload', async (ctx) => {
    ctx.body = await removeCampaignMedia(ctx.state.service, cDeps, id(ctx.params));
  });
  campaigns.post('/:id/cancel', async (ctx) => {
    await cancelCampaign(ctx.state.service, engine, id(ctx.params));
    ctx.status = 204;
  });
  campaigns.post('/:id/restart', async (ctx) => {
    await restartCampaign(ctx.state.service, engine, id(ctx.params));
    ctx.status = 204;
  });
  campaigns.get('/:id/report', async (ctx) => {
    ctx.body = await campaignReport(ctx.state.service, id(ctx.params));
  });
  campaigns.get('/:id/shipping', async (ctx) => {
    const campaignId = id(ctx.params);
    ctx.body = await campaignShipping(ctx.state.service, campaignId, parse(campaignShippingQuerySchema, ctx.query));
  });
  campaigns.get('/:id/shipping/export', async (ctx) => {
    const campaignId = id(ctx.params);
    const { name, text } = await campaignShippingCsv(ctx.state.service, campaignId, parse(campaignShippingQuerySchema, ctx.query));
    ctx.set('content-disposition', `attachment; filename="${fileNameOf(name)}-${campaignId}.csv"`);
    ctx.type = 'text/csv; charset=utf-8';
    // A byte-order mark, so spreadsheet programs read the accents as UTF-8.
    ctx.body = `\ufeff${text}`;
  });

  const settings = new Router<AppState>({ prefix: '/campaign-settings' });
  settings.use(deps.auth, adminOnly, planned);
  settings.get('/', async (ctx) => {
    ctx.body = await listCampaignSettings(ctx.state.service);
  });
  settings.post('/', async (ctx) => {
    ctx.body = await saveCampaignSettings(ctx.state.service, parse(saveCampaignSettingsSchema, ctx.request.body));
  });

  return [campaigns, settings];
};
