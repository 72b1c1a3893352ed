import Router, { type RouterContext as KoaRouterContext } from '@koa/router';
import {
  createFlowCampaignSchema,
  createFlowSchema,
  duplicateFlowSchema,
  flowTestSchema,
  flowUploadFormSchema,
  idParamSchema,
  listFlowCampaignsQuerySchema,
  listFlowsQuerySchema,
  saveFlowGraphSchema,
  updateFlowCampaignSchema,
  updateFlowSchema,
} from '@atrium/shared';
import { adminOnly } from '../../http/auth-middleware.js';
import type { RouteDeps } from '../../http/route-deps.js';
import type { AppState } from '../../http/types.js';
import { formFields, mediaOf, upload, uploadedFiles } from '../../http/upload.js';
import { parse } from '../../http/validate.js';
import { createFlowCampaign, deleteFlowCampaign, getFlowCampaign, listFlowCampaigns, updateFlowCampaign } from './flow-campaigns.service.js';
import { acceptedTypes, storeFlowMedia, uploadLimit, type FlowUploadTarget } from './flow-media.js';
import { runFlowTest } from './flow-test.js';
import {
  createFlow,
  deleteFlow,
  duplicateFlow,
  getFlowDocument,
  listFlows,
  saveFlowGraph,
  ticketFlowLog,
  updateFlow,
  type FlowServiceDeps,
} from './flows.service.js';

type RouterContext = KoaRouterContext<AppState>;

/** At most this many files in one upload of a content node's cards. */
const MAX_UPLOAD_FILES = 30;

/**
 * The flow builder and flow campaigns (spec 02 section 7). Every route needs a login and reads only the
 * caller's company; changing flows and campaigns (and the test panel, which runs them) is for admins, and
 * deleting a campaign follows contacts-page:deleteContact (the services check both).
 */
export const flowsRoutes = (deps: RouteDeps, service: FlowServiceDeps) => {
  const router = new Router<AppState>();

  router.get('/flowbuilder', deps.auth, async (ctx) => {
    ctx.body = await listFlows(ctx.state.service, parse(listFlowsQuerySchema, ctx.query));
  });
  router.post('/flowbuilder', deps.auth, async (ctx) => {
    ctx.status = 201;
    ctx.body = await createFlow(ctx.state.service, parse(createFlowSchema, ctx.request.body));
  });
  router.put('/flowbuilder', deps.auth, async (ctx) => {
    ctx.body = await updateFlow(ctx.state.service, parse(updateFlowSchema, ctx.request.body));
  });
  router.post('/flowbuilder/duplicate', deps.auth, async (ctx) => {
    ctx.status = 201;
    ctx.body = await duplicateFlow(ctx.state.service, parse(duplicateFlowSchema, ctx.request.body).flowId);
  });
  router.get('/flowbuilder/flow/:id', deps.auth, async (ctx) => {
    ctx.body = await getFlowDocument(ctx.state.service, service, parse(idParamSchema, ctx.params).id);
  });
  router.post('/flowbuilder/flow', deps.auth, async (ctx) => {
    ctx.body = await saveFlowGraph(ctx.state.service, service, parse(saveFlowGraphSchema, ctx.request.body));
  });
  router.post('/flowbuilder/test', deps.auth, async (ctx) => {
    ctx.body = await runFlowTest(ctx.state.service, { ...service, config: deps.config.integrations }, parse(flowTestSchema, ctx.request.body));
  });
  router.get('/flowbuilder/log/:id', deps.auth, async (ctx) => {
    ctx.body = { runs: await ticketFlowLog(ctx.state.service, parse(idParamSchema, ctx.params).id) };
  });

  // Uploads (multipart `medias`): the answer is the stored name (/img, /audio) or the names in order (/content).
  const uploadRoute = (target: FlowUploadTarget) => [
    deps.auth,
    adminOnly,
    upload({ fields: ['medias'], maxFiles: target === 'content' ? MAX_UPLOAD_FILES : 1, maxBytes: uploadLimit(target), accept: acceptedTypes(target) }),
    async (ctx: RouterContext) => {
      parse(flowUploadFormSchema, formFields(ctx));
      const names = await storeFlowMedia(ctx.state.em, service.media, target, uploadedFiles(ctx, 'medias').map(mediaOf));
      ctx.status = 201;
      // JSON either way: the stored name as a JSON string, or the list of names.
      ctx.body = JSON.stringify(target === 'content' ? names : names[0]);
      ctx.type = 'application/json';
    },
  ] as const;
  router.post('/flowbuilder/img', ...uploadRoute('img'));
  router.post('/flowbuilder/audio', ...uploadRoute('audio'));
  router.post('/flowbuilder/content', ...uploadRoute('content'));

  router.delete('/flowbuilder/:id', deps.auth, async (ctx) => {
    await deleteFlow(ctx.state.service, parse(idParamSchema, ctx.params).id);
    ctx.body = { message: 'Flow deleted' };
  });

  router.get('/flowcampaign', deps.auth, async (ctx) => {
    ctx.body = await listFlowCampaigns(ctx.state.service, parse(listFlowCampaignsQuerySchema, ctx.query).searchParam);
  });
  router.get('/flowcampaign/:id', deps.auth, async (ctx) => {
    ctx.body = await getFlowCampaign(ctx.state.service, parse(idParamSchema, ctx.params).id);
  });
  router.post('/flowcampaign', deps.auth, async (ctx) => {
    ctx.status = 201;
    ctx.body = await createFlowCampaign(ctx.state.service, parse(createFlowCampaignSchema, ctx.request.body));
  });
  router.put('/flowcampaign', deps.auth, async (ctx) => {
    ctx.body = await updateFlowCampaign(ctx.state.service, parse(updateFlowCampaignSchema, ctx.request.body));
  });
  router.delete('/flowcampaign/:id', deps.auth, async (ctx) => {
    await deleteFlowCampaign(ctx.state.service, parse(idParamSchema, ctx.params).id);
    ctx.body = { message: 'Flow campaign deleted' };
  });

  return router;
};
