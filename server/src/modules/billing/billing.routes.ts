import Router from '@koa/router';
import {
  checkoutSchema,
  idParamSchema,
  listInvoicesQuerySchema,
  pixWebhookSchema,
  updateInvoiceSchema,
} from '@atrium/shared';
import { z } from 'zod';
import { AppError } from '../../errors.js';
import { superOnly } from '../../http/auth-middleware.js';
import type { RouteDeps } from '../../http/route-deps.js';
import type { AppContext, AppState } from '../../http/types.js';
import { parse } from '../../http/validate.js';
import {
  checkout,
  getInvoice,
  listEveryCompanyInvoices,
  listInvoices,
  settlePixCharges,
  updateInvoice,
  verifyPixWebhook,
} from './billing.service.js';
import { createPaymentProvider, type PaymentProvider } from './providers/index.js';
import type { SandboxPaymentProvider } from './providers/sandbox.js';

const txidParams = z.object({ txid: z.string().regex(/^[A-Za-z0-9]{1,64}$/) });

/** Invoices (GET /invoices/all, /invoices/{id}; super: GET /invoices, PUT /invoices/{id}) and Pix checkout. */
export const billingRoutes = (deps: RouteDeps, provider: PaymentProvider | null = createPaymentProvider(deps.config, deps.logger)) => {
  const router = new Router<AppState>();
  const webhookDeps = { systemEm: deps.systemEm, events: deps.events, logger: deps.logger };

  router.get('/invoices/all', deps.auth, async (ctx) => {
    ctx.body = await listInvoices(ctx.state.service, parse(listInvoicesQuerySchema, ctx.query));
  });
  router.get('/invoices', deps.auth, superOnly, async (ctx) => {
    ctx.body = await listEveryCompanyInvoices(ctx.state.service, parse(listInvoicesQuerySchema, ctx.query));
  });
  router.get('/invoices/:id', deps.auth, async (ctx) => {
    ctx.body = await getInvoice(ctx.state.service, parse(idParamSchema, ctx.params).id);
  });
  router.put('/invoices/:id', deps.auth, superOnly, async (ctx) => {
    const { id } = parse(idParamSchema, ctx.params);
    ctx.body = await updateInvoice(ctx.state.service, id, parse(updateInvoiceSchema, ctx.request.body));
  });

  router.post('/subscription', deps.auth, async (ctx) => {
    ctx.body = await checkout(ctx.state.service, provider, parse(checkoutSchema, ctx.request.body));
  });

  // Public, authenticated by the token in its URL. Efí appends `/pix` to the registered address.
  const webhook = async (ctx: AppContext) => {
    const verified = verifyPixWebhook(provider, { query: ctx.query, headers: ctx.headers });
    ctx.body = { ok: true, ...(await settlePixCharges(webhookDeps, verified, parse(pixWebhookSchema, ctx.request.body))) };
  };
  router.post('/subscription/webhook', webhook);
  router.post('/subscription/webhook/pix', webhook);

  if (provider?.name === 'sandbox') {
    const bank = provider as SandboxPaymentProvider;
    // Public like a bank would be: the simulated payer pays, then the bank notifies the webhook path.
    router.post('/subscription/sandbox/:txid/pay', async (ctx) => {
      const { txid } = parse(txidParams, ctx.params);
      if (!bank.pay(txid)) throw new AppError('ERR_NO_PAYMENT_FOUND');
      const verified = verifyPixWebhook(bank, { query: bank.webhookQuery(), headers: {} });
      ctx.body = { ok: true, ...(await settlePixCharges(webhookDeps, verified, { pix: [{ txid }] })) };
    });
  }

  return router;
};
