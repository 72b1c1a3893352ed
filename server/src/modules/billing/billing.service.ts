import { LockMode, type FilterQuery } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/postgresql';
import {
  INVOICE_ISSUE_DAYS,
  INVOICES_PAGE_SIZE,
  PIX_EXPIRATION_SECONDS,
  type CheckoutInput,
  type InvoiceView,
  type ListInvoicesQuery,
  type PixChargeView,
  type PixWebhookInput,
  type UpdateInvoiceInput,
} from '@atrium/shared';
import { crossCompanyEm, pageOf, requireAdmin, requireSuper, type ServiceContext } from '../../context.js';
import { escapeLike } from '../../db/sql.js';
import { forCompany } from '../../db/tenant.js';
import { AppError } from '../../errors.js';
import type { EventBus } from '../../events/bus.js';
import type { Logger } from '../../logger.js';
import { addRecurrence, presentCompany } from '../companies/index.js';
import { Company } from '../companies/company.entity.js';
import { Invoice, Payment } from './invoice.entity.js';
import type { PaymentProvider, WebhookRequest } from './providers/types.js';

const money = (value: number | string) => Number(value).toFixed(2);

export const presentInvoice = (invoice: Invoice): InvoiceView => ({
  id: invoice.id,
  companyId: invoice.companyId,
  detail: invoice.detail,
  value: Number(invoice.value),
  dueDate: invoice.dueDate,
  status: invoice.status,
  paidAt: invoice.paidAt,
  createdAt: invoice.createdAt,
  updatedAt: invoice.updatedAt,
});

/** The Pix response of spec 01 section 3 (qrcode.qrcode, valor.original), plus the charge's id. */
export const presentCharge = (payment: Payment): PixChargeView => ({
  txid: payment.txid,
  invoiceId: payment.invoiceId,
  status: payment.status,
  calendario: { expiracao: PIX_EXPIRATION_SECONDS },
  valor: { original: money(payment.value) },
  qrcode: { qrcode: payment.qrcode },
});

const searchWhere = (searchParam: string): FilterQuery<Invoice> => {
  if (!searchParam) return {};
  const byDetail: FilterQuery<Invoice> = { detail: { $ilike: `%${escapeLike(searchParam)}%` } };
  return /^\d{1,9}$/.test(searchParam) ? { $or: [byDetail, { id: Number(searchParam) }] } : byDetail;
};

const pageOfInvoices = async (em: EntityManager, query: ListInvoicesQuery) => {
  const [rows, count] = await em.findAndCount(Invoice, searchWhere(query.searchParam), {
    orderBy: { dueDate: 'desc', id: 'desc' },
    limit: INVOICES_PAGE_SIZE,
    offset: (query.pageNumber - 1) * INVOICES_PAGE_SIZE,
  });
  const page = pageOf(rows.map(presentInvoice), count, query.pageNumber, INVOICES_PAGE_SIZE);
  return { invoices: page.rows, count: page.count, hasMore: page.hasMore };
};

/**
 * GET /invoices/all: the caller's company's invoices, newest due date first. Billing is the admin's
 * business (the invoices screen sits in the admin menu); the original showed them to anyone.
 */
export const listInvoices = async (ctx: ServiceContext, query: ListInvoicesQuery) => {
  requireAdmin(ctx.actor);
  return pageOfInvoices(ctx.em, query);
};

/** GET /invoices: every company's invoices, for super users (the original listed them to anyone). */
export const listEveryCompanyInvoices = async (ctx: ServiceContext, query: ListInvoicesQuery) =>
  pageOfInvoices(crossCompanyEm(ctx), query);

export const getInvoice = async (ctx: ServiceContext, id: number) => {
  requireAdmin(ctx.actor);
  const invoice = await ctx.em.findOne(Invoice, id);
  if (!invoice) throw new AppError('ERR_NO_INVOICE_FOUND');
  return presentInvoice(invoice);
};

/** PUT /invoices/{id}: super users set the stored status (the original let anyone); the due date has its own button. */
export const updateInvoice = async (ctx: ServiceContext, id: number, input: UpdateInvoiceInput) => {
  requireSuper(ctx.actor);
  const em = crossCompanyEm(ctx);
  const invoice = await em.findOne(Invoice, id);
  if (!invoice) throw new AppError('ERR_NO_INVOICE_FOUND');
  if (invoice.status !== input.status) {
    invoice.status = input.status;
    invoice.paidAt = input.status === 'paid' ? new Date() : null;
    await em.flush();
  }
  return presentInvoice(invoice);
};

/**
 * The invoice sweep (spec 03 section 11): every active company whose dueDate is less than 20 days away
 * (in its own time zone) or already past gets one open invoice for that dueDate, with its plan's name and
 * value. The (company, dueDate) unique index makes a second sweep, or two at once, harmless.
 */
export const issueDueInvoices = async (
  systemEm: EntityManager,
  now = new Date(),
  /** One company only (when it is created or its due date changes); all when absent. */
  companyId?: number,
): Promise<{ id: number; companyId: number }[]> => {
  const rows: { id: number; company_id: number }[] = await systemEm.execute(
    `insert into invoices (company_id, detail, value, due_date, status, created_at, updated_at)
     select c.id, p.name, p.value, c.due_date, 'open', ?, ?
       from companies c join plans p on p.id = c.plan_id
      where c.status and c.due_date is not null
        and c.due_date < (?::timestamptz at time zone c.timezone)::date + ?::int
        and (?::int is null or c.id = ?::int)
     on conflict (company_id, due_date) do nothing
     returning id, company_id`,
    [now, now, now.toISOString(), INVOICE_ISSUE_DAYS, companyId ?? null, companyId ?? null],
  );
  return rows.map((r) => ({ id: r.id, companyId: r.company_id }));
};

/**
 * POST /subscription: a Pix charge for one of the caller's company's open invoices. The amount is the
 * invoice's, whatever the payload's price or plan say. A charge still payable for the same invoice is
 * answered again instead of issuing a second one (a double click must not mean two QR codes to pay).
 */
export const checkout = async (ctx: ServiceContext, provider: PaymentProvider | null, input: CheckoutInput): Promise<PixChargeView> => {
  requireAdmin(ctx.actor);
  if (!provider) throw new AppError('ERR_PAYMENT_PROVIDER_DISABLED');
  // Company-scoped: another company's invoice is simply not found.
  const invoice = await ctx.em.findOne(Invoice, input.invoiceId);
  if (!invoice) throw new AppError('ERR_NO_INVOICE_FOUND');
  if (invoice.status !== 'open') throw new AppError('ERR_INVOICE_NOT_OPEN');

  // A few minutes short of the expiry, so the payer is not handed a code about to die.
  const payableSince = new Date(Date.now() - (PIX_EXPIRATION_SECONDS - 300) * 1000);
  const pending = await ctx.em.findOne(
    Payment,
    { invoiceId: invoice.id, provider: provider.name, status: 'ATIVA', createdAt: { $gt: payableSince } },
    { orderBy: { id: 'desc' } },
  );
  if (pending && money(pending.value) === money(invoice.value)) {
    const state = await provider.fetchCharge(pending.txid);
    if (state?.status === 'ATIVA') return presentCharge(pending);
  }

  const company = await ctx.em.findOneOrFail(Company, invoice.companyId);
  const charge = await provider.createCharge({
    invoice: { id: invoice.id, detail: invoice.detail, value: Number(invoice.value), dueDate: invoice.dueDate },
    company: { id: company.id, name: company.name },
  });
  const payment = ctx.em.create(Payment, {
    companyId: invoice.companyId,
    invoiceId: invoice.id,
    provider: provider.name,
    txid: charge.txid,
    value: charge.value,
    qrcode: charge.qrcode,
  });
  await ctx.em.flush();
  return presentCharge(payment);
};

export interface WebhookDeps {
  systemEm: () => EntityManager;
  events: EventBus;
  logger: Logger;
}

/** The webhook is public: only a request carrying the provider's token gets further. */
export const verifyPixWebhook = (provider: PaymentProvider | null, request: WebhookRequest): PaymentProvider => {
  if (!provider || !provider.verifyWebhook(request)) throw new AppError('ERR_INVALID_WEBHOOK');
  return provider;
};

/**
 * One notified charge. The notification is only a hint: the charge is re-fetched from the provider, and
 * only when it is CONCLUIDA for the amount asked does one transaction flip the payment ATIVA → CONCLUIDA
 * (a conditional update, so of two deliveries, however close, exactly one gets past it), mark the invoice
 * paid and move the company's dueDate forward by its recurrence from the old dueDate.
 */
const settleCharge = async (deps: WebhookDeps, provider: PaymentProvider, txid: string): Promise<boolean> => {
  const payment = await deps.systemEm().findOne(Payment, { provider: provider.name, txid });
  if (!payment) {
    deps.logger.warn({ provider: provider.name, txid }, 'payment notification for an unknown charge');
    return false;
  }
  if (payment.status === 'CONCLUIDA') return false;
  const charge = await provider.fetchCharge(txid);
  if (!charge || charge.status !== 'CONCLUIDA') return false;
  if (money(charge.value) !== money(payment.value)) {
    deps.logger.error({ provider: provider.name, txid, paid: charge.value, asked: payment.value }, 'charge paid with another amount');
    return false;
  }

  const now = new Date();
  const company = await forCompany(deps.systemEm(), payment.companyId).transactional(async (em) => {
    const flipped = await em.nativeUpdate(Payment, { id: payment.id, status: 'ATIVA' }, { status: 'CONCLUIDA', paidAt: now, updatedAt: now });
    if (flipped !== 1) return null;
    const invoicePaid = await em.nativeUpdate(
      Invoice,
      { id: payment.invoiceId, status: 'open' },
      { status: 'paid', paidAt: now, updatedAt: now },
    );
    if (invoicePaid !== 1) {
      // Two charges of one invoice both paid: the money is recorded on the payment; one invoice buys one period.
      deps.logger.warn({ invoiceId: payment.invoiceId, txid }, 'a second payment for an invoice already paid');
      return null;
    }
    const row = await em.findOneOrFail(Company, payment.companyId, { lockMode: LockMode.PESSIMISTIC_WRITE });
    row.dueDate = addRecurrence(row.dueDate, row.recurrence, now);
    await em.flush();
    return row;
  });
  if (!company) return false;
  const presented = presentCompany(company);
  deps.events.emit('payment.concluded', { companyId: company.id, company: presented });
  deps.events.emit('company.saved', { companyId: company.id, action: 'update', company: presented });
  deps.logger.info({ companyId: company.id, invoiceId: payment.invoiceId, dueDate: company.dueDate }, 'invoice paid');
  return true;
};

/**
 * POST /subscription/webhook, after verifyPixWebhook: settles every notified charge. A provider failure
 * on one is re-thrown once the others are done, so the provider delivers again (settling is idempotent).
 */
export const settlePixCharges = async (deps: WebhookDeps, provider: PaymentProvider, input: PixWebhookInput) => {
  const txids = [...new Set(input.pix.map((p) => p.txid).filter((t): t is string => !!t))];
  const settled: string[] = [];
  let failure: unknown;
  for (const txid of txids) {
    try {
      if (await settleCharge(deps, provider, txid)) settled.push(txid);
    } catch (err) {
      failure ??= err;
    }
  }
  if (failure) throw failure;
  return { settled };
};
