import Router from '@koa/router';
import { createPromptSchema, idParamSchema, listQuerySchema, promptAssistQuerySchema, promptAssistSchema, updatePromptSchema } from '@atrium/shared';
import { adminOnly } from '../../http/auth-middleware.js';
import type { RouteDeps } from '../../http/route-deps.js';
import type { AppState } from '../../http/types.js';
import { parse } from '../../http/validate.js';
import { createSealer } from '../../secrets/sealed.js';
import { assistAvailability, suggestReply, summariseTicket } from './assist.js';
import { createPrompt, deletePrompt, getPrompt, listPrompts, promptUsage, updatePrompt, type PromptDeps } from './prompts.service.js';

export const promptDepsOf = (config: RouteDeps['config']): PromptDeps => ({
  sealer: createSealer(config.integrations.secretKey),
  aiTimeoutMs: config.integrations.aiTimeoutMs,
});

/**
 * AI prompts (spec 02 section 7): the company's users read them (the queue dialog lists them), admins
 * write them; every call needs the plan's AI flag. The assist calls are any agent's, on a ticket they see.
 */
export const promptsRoutes = (deps: RouteDeps) => {
  const router = new Router<AppState>({ prefix: '/prompt' });
  const pDeps = promptDepsOf(deps.config);

  router.get('/', deps.auth, async (ctx) => {
    ctx.body = await listPrompts(ctx.state.service, parse(listQuerySchema, ctx.query));
  });
  router.get('/usage', deps.auth, adminOnly, async (ctx) => {
    ctx.body = { usage: await promptUsage(ctx.state.service) };
  });
  router.get('/assist', deps.auth, async (ctx) => {
    ctx.body = await assistAvailability(ctx.state.service, parse(promptAssistQuerySchema, ctx.query).ticketId);
  });
  router.post('/assist/suggest', deps.auth, async (ctx) => {
    ctx.body = await suggestReply(ctx.state.service, pDeps, parse(promptAssistSchema, ctx.request.body).ticketId);
  });
  router.post('/assist/summary', deps.auth, async (ctx) => {
    ctx.body = await summariseTicket(ctx.state.service, pDeps, parse(promptAssistSchema, ctx.request.body).ticketId);
  });
  router.get('/:id', deps.auth, async (ctx) => {
    ctx.body = await getPrompt(ctx.state.service, parse(idParamSchema, ctx.params).id);
  });
  router.post('/', deps.auth, adminOnly, async (ctx) => {
    ctx.status = 201;
    ctx.body = await createPrompt(ctx.state.service, pDeps, parse(createPromptSchema, ctx.request.body));
  });
  router.put('/:id', deps.auth, adminOnly, async (ctx) => {
    const { id } = parse(idParamSchema, ctx.params);
    ctx.body = await updatePrompt(ctx.state.service, pDeps, id, parse(updatePromptSchema, ctx.request.body));
  });
  router.delete('/:id', deps.auth, adminOnly, async (ctx) => {
    await deletePrompt(ctx.state.service, parse(idParamSchema, ctx.params).id);
    ctx.body = { message: 'Prompt deleted' };
  });

  return router;
};
