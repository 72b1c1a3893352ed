import Router from '@koa/router';
import {
  createCompanySchema,
  idParamSchema,
  idSchema,
  listQuerySchema,
  signupSchema,
  updateCompanySchedulesSchema,
  updateCompanySchema,
} from '@atrium/shared';
import { z } from 'zod';
import { adminOnly, superOnly } from '../../http/auth-middleware.js';
import type { RouteDeps } from '../../http/route-deps.js';
import type { AppState } from '../../http/types.js';
import { parse } from '../../http/validate.js';
import {
  createCompany,
  deleteCompany,
  getCompany,
  getCompanyPlan,
  listAllCompanies,
  listCompanies,
  signup,
  updateCompany,
  updateCompanySchedules,
} from './companies.service.js';

const companyIdParam = z.object({ companyId: idSchema });

export const companiesRoutes = (deps: RouteDeps) => {
  const router = new Router<AppState>({ prefix: '/companies' });

  // Public signup: creates the company, its settings and its first admin.
  router.post('/cadastro', async (ctx) => {
    const input = parse(signupSchema, ctx.request.body);
    ctx.status = 201;
    ctx.body = await signup({ em: deps.systemEm(), config: deps.config, events: deps.events }, input, ctx.ip);
  });

  router.get('/', deps.auth, superOnly, async (ctx) => {
    ctx.body = await listCompanies(ctx.state.service, parse(listQuerySchema, ctx.query));
  });
  router.get('/list', deps.auth, superOnly, async (ctx) => {
    ctx.body = await listAllCompanies(ctx.state.service);
  });
  router.get('/listPlan/:companyId', deps.auth, async (ctx) => {
    const { companyId } = parse(companyIdParam, ctx.params);
    ctx.body = await getCompanyPlan(ctx.state.service, companyId);
  });
  router.get('/:id', deps.auth, async (ctx) => {
    const { id } = parse(idParamSchema, ctx.params);
    ctx.body = await getCompany(ctx.state.service, id);
  });
  router.post('/', deps.auth, superOnly, async (ctx) => {
    ctx.status = 201;
    const input = parse(createCompanySchema, ctx.request.body);
    ctx.body = await createCompany(ctx.state.service, input, deps.config.defaultTimezone);
  });
  router.put('/:id/schedules', deps.auth, adminOnly, async (ctx) => {
    const { id } = parse(idParamSchema, ctx.params);
    ctx.body = await updateCompanySchedules(ctx.state.service, id, parse(updateCompanySchedulesSchema, ctx.request.body));
  });
  router.put('/:id', deps.auth, superOnly, async (ctx) => {
    const { id } = parse(idParamSchema, ctx.params);
    ctx.body = await updateCompany(ctx.state.service, id, parse(updateCompanySchema, ctx.request.body));
  });
  router.delete('/:id', deps.auth, superOnly, async (ctx) => {
    const { id } = parse(idParamSchema, ctx.params);
    await deleteCompany(ctx.state.service, id);
    ctx.body = { message: 'Company deleted' };
  });

  return router;
};
