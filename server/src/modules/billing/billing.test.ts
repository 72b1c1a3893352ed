import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forCompany, forSystem } from '../../db/tenant.js';
import { createLogger } from '../../logger.js';
import { addRecurrence } from '../companies/companies.service.js';
import { Company } from '../companies/company.entity.js';
import {
  connectSocket,
  createTenant,
  eventually,
  nextEvent,
  startTestApp,
  watch,
  type Tenant,
  type TestApp,
} from '../../../testing/helpers.js';
import { expectError } from '../../../testing/expect.js';
import { issueDueInvoices } from './billing.service.js';
import { Invoice, Payment } from './invoice.entity.js';
import { createEfiProvider } from './providers/efi.js';
import { crc16 } from './providers/pix-code.js';
import { webhookToken } from './providers/webhook-token.js';

let t: TestApp;
let a: Tenant;
let b: Tenant;
let planId: number;
const PLAN_VALUE = 149.9;
const sockets: Socket[] = [];

const uid = () => randomBytes(4).toString('hex');
const isoDay = (date: Date) => date.toISOString().slice(0, 10);
const daysFromToday = (days: number) => isoDay(new Date(Date.now() + days * 86_400_000));
/** Noon UTC of a yyyy-MM-dd day plus `days`: the same calendar day in São Paulo. */
const noonOf = (day: string, days = 0) => new Date(Date.parse(`${day}T12:00:00Z`) + days * 86_400_000);

const systemEm = () => forSystem(t.app.orm.em);
const sweep = (now: Date) => issueDueInvoices(systemEm(), now);
const companyRow = async (id: number) => (await systemEm().findOneOrFail(Company, id));
const invoicesOf = async (companyId: number) => systemEm().find(Invoice, { companyId }, { orderBy: { id: 'asc' } });
const setCompany = async (companyId: number, patch: Record<string, unknown>) => {
  const res = await t.api.put(`/companies/${companyId}`, patch, t.superToken);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
};
/** An open invoice of the company for `dueDate`, issued by the sweep as it would be 10 days before. */
const openInvoice = async (companyId: number, dueDate: string) => {
  await setCompany(companyId, { dueDate });
  await sweep(noonOf(dueDate, -10));
  const invoice = (await invoicesOf(companyId)).find((i) => i.dueDate === dueDate);
  expect(invoice).toBeDefined();
  return invoice!;
};
const hook = (body: unknown, query = `hmac=${webhookToken(t.app.config.payment.webhookSecret)}`, route = '/subscription/webhook') =>
  t.api.post(`${route}${query ? `?${query}` : ''}`, body);
const socketOf = async (token: string) => {
  const socket = await connectSocket(t.app.url, token);
  sockets.push(socket);
  return socket;
};

beforeAll(async () => {
  t = await startTestApp();
  const plan = await t.api.post('/plans', { name: `Pro ${uid()}`, users: 5, connections: 2, queues: 3, value: PLAN_VALUE }, t.superToken);
  expect(plan.status, JSON.stringify(plan.body)).toBe(201);
  planId = plan.body.id;
  a = await createTenant(t, 'BillA', planId);
  b = await createTenant(t, 'BillB', planId);
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await t?.stop();
});

describe('authentication', () => {
  it.each([
    ['GET', '/invoices/all'],
    ['GET', '/invoices'],
    ['GET', '/invoices/1'],
    ['PUT', '/invoices/1'],
    ['POST', '/subscription'],
  ])('%s %s answers 401 without a token', async (method, url) => {
    expectError(await t.api.request(method, url, { body: method === 'GET' ? undefined : {} }), 401, 'ERR_SESSION_EXPIRED');
  });
});

describe('the invoice sweep', () => {
  it('issues one open invoice with the plan name and value once the due date is less than 20 days away', async () => {
    const c = await createTenant(t, 'Sweep', planId);
    const due = '2098-06-30';
    await setCompany(c.companyId, { dueDate: due });
    await sweep(noonOf(due, -21));
    await sweep(noonOf(due, -20));
    expect(await invoicesOf(c.companyId)).toEqual([]);
    const issued = await sweep(noonOf(due, -19));
    const rows = await invoicesOf(c.companyId);
    expect(rows).toHaveLength(1);
    expect(issued.map((i) => i.id)).toContain(rows[0].id);
    const plan = (await t.api.get(`/plans/${planId}`, t.superToken)).body;
    expect(rows[0]).toMatchObject({ dueDate: due, status: 'open', detail: plan.name, paidAt: null });
    expect(Number(rows[0].value)).toBe(PLAN_VALUE);
  });

  it('issues none twice for the same due date, also when two sweeps run at once or the date has passed', async () => {
    const c = await createTenant(t, 'Twice', planId);
    const due = '2098-09-15';
    await setCompany(c.companyId, { dueDate: due });
    await Promise.all([sweep(noonOf(due, -5)), sweep(noonOf(due, -5)), sweep(noonOf(due, -4))]);
    await sweep(noonOf(due, 3));
    expect((await invoicesOf(c.companyId)).map((i) => i.dueDate)).toEqual([due]);
    // The next period's invoice follows once the due date moves.
    await setCompany(c.companyId, { dueDate: '2098-10-15' });
    await sweep(noonOf('2098-10-15', -1));
    expect((await invoicesOf(c.companyId)).map((i) => i.dueDate)).toEqual([due, '2098-10-15']);
  });

  it('issues the invoice at once when a company is given a due date less than 20 days away, without the sweep', async () => {
    const c = await createTenant(t, 'Soon', planId);
    const due = daysFromToday(2);
    await setCompany(c.companyId, { dueDate: due });
    await eventually(async () => (await invoicesOf(c.companyId)).some((i) => i.dueDate === due && i.status === 'open'));
    expect((await invoicesOf(c.companyId)).map((i) => i.dueDate)).toEqual([due]);
  });

  it('skips inactive companies', async () => {
    const c = await createTenant(t, 'Inactive', planId);
    const due = '2098-11-20';
    await setCompany(c.companyId, { dueDate: due, status: false });
    await sweep(noonOf(due, -1));
    expect(await invoicesOf(c.companyId)).toEqual([]);
  });

  it('is a daily job that also ran once at start', async () => {
    const { jobs } = await t.app.scheduler.agenda.queryJobs({ name: 'billing:issue-invoices' });
    expect(jobs.some((j) => j.repeatInterval === '1 day')).toBe(true);
    await eventually(async () => {
      const { jobs: now } = await t.app.scheduler.agenda.queryJobs({ name: 'billing:issue-invoices' });
      return now.some((j) => !j.repeatInterval && j.lastFinishedAt !== undefined && !j.failedAt);
    });
  });
});

describe('GET /invoices/all and /invoices/{id}', () => {
  let mine: Invoice[];
  beforeAll(async () => {
    // 23 invoices of company A, for distinct past and future dates.
    const em = forCompany(t.app.orm.em, a.companyId);
    for (let i = 0; i < 23; i++) {
      em.create(Invoice, { companyId: a.companyId, detail: i === 7 ? 'Special plan' : 'Pro', value: 10 + i, dueDate: `2090-${String((i % 12) + 1).padStart(2, '0')}-${String(i + 1).padStart(2, '0')}` });
    }
    await em.flush();
    mine = await invoicesOf(a.companyId);
  });

  it("pages the caller's company's invoices, newest due date first, with count and hasMore", async () => {
    const first = await t.api.get('/invoices/all', a.admin.token);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.count).toBe(mine.length);
    expect(first.body.invoices).toHaveLength(20);
    expect(first.body.hasMore).toBe(true);
    const second = await t.api.get('/invoices/all?pageNumber=2', a.admin.token);
    const all = [...first.body.invoices, ...second.body.invoices];
    expect(second.body.hasMore).toBe(mine.length > 40);
    expect(all.every((i: any) => i.companyId === a.companyId)).toBe(true);
    const dates = all.map((i: any) => i.dueDate);
    expect(dates).toEqual([...dates].sort().reverse());
    expect(first.body.invoices[0]).toMatchObject({ id: expect.any(Number), detail: expect.any(String), value: expect.any(Number), status: 'open' });
  });

  it('searches by detail', async () => {
    const res = await t.api.get('/invoices/all?searchParam=special', a.admin.token);
    expect(res.body.invoices.map((i: any) => i.detail)).toEqual(['Special plan']);
  });

  it("never shows another company's invoices", async () => {
    const res = await t.api.get('/invoices/all', b.admin.token);
    const ids = new Set(mine.map((i) => i.id));
    expect(res.body.invoices.some((i: any) => ids.has(i.id) || i.companyId !== b.companyId)).toBe(false);
    expectError(await t.api.get(`/invoices/${mine[0].id}`, b.admin.token), 404, 'ERR_NO_INVOICE_FOUND');
  });

  it('reads one of its own invoices', async () => {
    const res = await t.api.get(`/invoices/${mine[3].id}`, a.admin.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: mine[3].id, companyId: a.companyId, dueDate: mine[3].dueDate, value: Number(mine[3].value) });
  });

  it('is for admins: agents get ERR_NO_PERMISSION', async () => {
    expectError(await t.api.get('/invoices/all', a.agent.token), 403, 'ERR_NO_PERMISSION');
    expectError(await t.api.get(`/invoices/${mine[0].id}`, a.agent.token), 403, 'ERR_NO_PERMISSION');
  });
});

describe('super users: GET /invoices and PUT /invoices/{id}', () => {
  it("lists every company's invoices to super users only", async () => {
    const ofA = await openInvoice(a.companyId, daysFromToday(12));
    const ofB = await openInvoice(b.companyId, daysFromToday(13));
    const res = await t.api.get('/invoices?pageNumber=1', t.superToken);
    expect(res.status).toBe(200);
    const all: any[] = res.body.invoices;
    let page = 1;
    let more = res.body.hasMore;
    while (more) {
      const next = await t.api.get(`/invoices?pageNumber=${++page}`, t.superToken);
      all.push(...next.body.invoices);
      more = next.body.hasMore;
    }
    const ids = all.map((i) => i.id);
    expect(ids).toContain(ofA.id);
    expect(ids).toContain(ofB.id);
    expectError(await t.api.get('/invoices', a.admin.token), 403, 'ERR_NO_SUPER');
    expectError(await t.api.get('/invoices', a.agent.token), 403, 'ERR_NO_SUPER');
  });

  it('lets super users set the stored status, and nobody else', async () => {
    // An open invoice of its own: B's first one may be missing, or paid by another test.
    const c = await createTenant(t, 'Stored', planId);
    const invoice = await openInvoice(c.companyId, daysFromToday(14));
    expectError(await t.api.put(`/invoices/${invoice.id}`, { status: 'paid' }, c.admin.token), 403, 'ERR_NO_SUPER');
    expectError(await t.api.put(`/invoices/${invoice.id}`, { status: 'paid' }, a.admin.token), 403, 'ERR_NO_SUPER');
    expect((await systemEm().findOneOrFail(Invoice, invoice.id)).status).toBe('open');
    const paid = await t.api.put(`/invoices/${invoice.id}`, { status: 'paid' }, t.superToken);
    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({ id: invoice.id, status: 'paid', paidAt: expect.any(String) });
    const reopened = await t.api.put(`/invoices/${invoice.id}`, { status: 'open' }, t.superToken);
    expect(reopened.body).toMatchObject({ status: 'open', paidAt: null });
    expect((await t.api.put(`/invoices/${invoice.id}`, { status: 'expired' }, t.superToken)).status).toBe(400);
    expectError(await t.api.put('/invoices/999999', { status: 'paid' }, t.superToken), 404, 'ERR_NO_INVOICE_FOUND');
  });
});

describe('POST /subscription', () => {
  it('charges the invoice by Pix at the invoice price, whatever the client says, and stores the payment', async () => {
    const invoice = await openInvoice(a.companyId, daysFromToday(15));
    const res = await t.api.post(
      '/subscription',
      { invoiceId: invoice.id, price: 0.01, plan: JSON.stringify({ title: 'Cheap', price: 0.01 }), users: 99, connections: 99, firstName: 'Ana' },
      a.admin.token,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      txid: expect.stringMatching(/^[A-Za-z0-9]{26,35}$/),
      invoiceId: invoice.id,
      status: 'ATIVA',
      valor: { original: '149.90' },
      qrcode: { qrcode: expect.stringMatching(/^000201/) },
    });
    // A well-formed BR Code: its last four characters are the CRC of the rest.
    const code: string = res.body.qrcode.qrcode;
    expect(code).toContain('br.gov.bcb.pix');
    expect(code).toContain('5406149.90');
    expect(crc16(code.slice(0, -4))).toBe(code.slice(-4));
    const stored = await systemEm().findOneOrFail(Payment, { txid: res.body.txid });
    expect(stored).toMatchObject({ companyId: a.companyId, invoiceId: invoice.id, provider: 'sandbox', status: 'ATIVA', qrcode: code });
    expect(Number(stored.value)).toBe(PLAN_VALUE);
    // Asked again (a double click), the same charge is answered.
    const again = await t.api.post('/subscription', { invoiceId: invoice.id }, a.admin.token);
    expect(again.body.txid).toBe(res.body.txid);
    expect(await systemEm().count(Payment, { invoiceId: invoice.id })).toBe(1);
  });

  it("refuses another company's invoice as not found, and agents", async () => {
    const invoice = await openInvoice(a.companyId, daysFromToday(16));
    expectError(await t.api.post('/subscription', { invoiceId: invoice.id }, b.admin.token), 404, 'ERR_NO_INVOICE_FOUND');
    expectError(await t.api.post('/subscription', { invoiceId: invoice.id }, a.agent.token), 403, 'ERR_NO_PERMISSION');
    expectError(await t.api.post('/subscription', { invoiceId: 999999 }, a.admin.token), 404, 'ERR_NO_INVOICE_FOUND');
    expect(await systemEm().count(Payment, { invoiceId: invoice.id })).toBe(0);
  });

  it('refuses a paid invoice and a payload without invoiceId', async () => {
    const invoice = await openInvoice(b.companyId, daysFromToday(17));
    await systemEm().nativeUpdate(Invoice, { id: invoice.id }, { status: 'paid' });
    expectError(await t.api.post('/subscription', { invoiceId: invoice.id }, b.admin.token), 409, 'ERR_INVOICE_NOT_OPEN');
    const res = await t.api.post('/subscription', { price: 10 }, b.admin.token);
    expectError(res, 400, 'ERR_VALIDATION');
    expect(res.body.fields.map((f: any) => f.path)).toContain('invoiceId');
  });
});

describe('POST /subscription/webhook', () => {
  /** A fresh company with an open invoice and its Pix charge. */
  const charged = async (label: string, dueDate = daysFromToday(8), patch: Record<string, unknown> = {}) => {
    const c = await createTenant(t, label, planId);
    if (Object.keys(patch).length > 0) await setCompany(c.companyId, patch);
    const invoice = await openInvoice(c.companyId, dueDate);
    const res = await t.api.post('/subscription', { invoiceId: invoice.id }, c.admin.token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return { c, invoice, txid: res.body.txid as string };
  };

  it('refuses a notification without the right token and changes nothing', async () => {
    const { c, invoice, txid } = await charged('Forged');
    expect((await t.api.post(`/subscription/sandbox/${txid}/pay`)).status).toBe(200);
    // Paid at the bank, so only the token stands between a forger and a free period.
    await systemEm().nativeUpdate(Payment, { txid }, { status: 'ATIVA', paidAt: null });
    await systemEm().nativeUpdate(Invoice, { id: invoice.id }, { status: 'open', paidAt: null });
    const before = (await companyRow(c.companyId)).dueDate;
    expectError(await hook({ pix: [{ txid }] }, ''), 401, 'ERR_INVALID_WEBHOOK');
    expectError(await hook({ pix: [{ txid }] }, 'hmac=0000'), 401, 'ERR_INVALID_WEBHOOK');
    expectError(await hook({ pix: [{ txid }] }, `hmac=${webhookToken('another-secret-of-at-least-32-chars!!')}`), 401, 'ERR_INVALID_WEBHOOK');
    expectError(await hook({ pix: [{ txid }] }, 'hmac=0000', '/subscription/webhook/pix'), 401, 'ERR_INVALID_WEBHOOK');
    expect((await companyRow(c.companyId)).dueDate).toBe(before);
    expect((await systemEm().findOneOrFail(Payment, { txid })).status).toBe('ATIVA');
    expect((await systemEm().findOneOrFail(Invoice, invoice.id)).status).toBe('open');
  });

  it('does nothing while the charge is unpaid at the provider', async () => {
    const { c, invoice, txid } = await charged('Unpaid');
    const before = (await companyRow(c.companyId)).dueDate;
    const res = await hook({ pix: [{ txid, valor: '149.90' }] });
    expect(res.status).toBe(200);
    expect(res.body.settled).toEqual([]);
    expect((await companyRow(c.companyId)).dueDate).toBe(before);
    expect((await systemEm().findOneOrFail(Invoice, invoice.id)).status).toBe('open');
    // Efí's registration test and Pix without a charge are answered 200 and ignored.
    expect((await hook({ evento: 'teste_webhook' })).status).toBe(200);
    expect((await hook({ pix: [{ txid: 'unknownunknownunknownunknown1' }, { endToEndId: 'E1' }] })).body.settled).toEqual([]);
  });

  it('pays once: invoice paid, dueDate moved by one recurrence, a payment event to the company only; replays change nothing', async () => {
    const { c, invoice, txid } = await charged('Paid');
    const before = (await companyRow(c.companyId)).dueDate!;
    const mineSocket = await socketOf(c.admin.token);
    const otherSocket = await socketOf(b.admin.token);
    const event = nextEvent(mineSocket, `company-${c.companyId}-payment`);
    const leaked = watch(otherSocket, `company-${c.companyId}-payment`);

    const paid = await t.api.post(`/subscription/sandbox/${txid}/pay`);
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    expect(paid.body.settled).toEqual([txid]);
    const expected = addRecurrence(before, 'MENSAL');
    expect(await event).toMatchObject({ action: 'CONCLUIDA', company: { id: c.companyId, dueDate: expected } });
    // The sentinel: B's admin saves their agent, unchanged; company-{B}-user is sent while that request runs.
    expect((await t.api.put(`/users/${b.agent.id}`, {}, b.admin.token)).status).toBe(200);
    expect(await leaked.before(`company-${b.companyId}-user`)).toEqual([]);
    expect((await companyRow(c.companyId)).dueDate).toBe(expected);
    const row = await systemEm().findOneOrFail(Invoice, invoice.id);
    expect(row.status).toBe('paid');
    expect(row.paidAt).toBeInstanceOf(Date);
    expect(await systemEm().findOneOrFail(Payment, { txid })).toMatchObject({ status: 'CONCLUIDA', paidAt: expect.any(Date) });

    // The provider delivers again, twice in a row and three times at once (and on Efí's /pix path).
    expect((await hook({ pix: [{ txid }] })).body.settled).toEqual([]);
    expect((await hook({ pix: [{ txid }, { txid }] }, undefined, '/subscription/webhook/pix')).body.settled).toEqual([]);
    const replays = await Promise.all([1, 2, 3].map(() => hook({ pix: [{ txid }] })));
    expect(replays.map((r) => r.status)).toEqual([200, 200, 200]);
    expect((await companyRow(c.companyId)).dueDate).toBe(expected);
    // The paid invoice can no longer be checked out.
    expectError(await t.api.post('/subscription', { invoiceId: invoice.id }, c.admin.token), 409, 'ERR_INVOICE_NOT_OPEN');
  });

  it('settles once when the first deliveries arrive at the same moment', async () => {
    const { c, txid } = await charged('Race');
    const before = (await companyRow(c.companyId)).dueDate!;
    expect((await t.api.post(`/subscription/sandbox/${txid}/pay`)).status).toBe(200);
    // Undo the settlement but not the bank's state, then let five deliveries race.
    const row = await systemEm().findOneOrFail(Payment, { txid });
    await systemEm().nativeUpdate(Payment, { txid }, { status: 'ATIVA', paidAt: null });
    await systemEm().nativeUpdate(Invoice, { id: row.invoiceId }, { status: 'open', paidAt: null });
    await systemEm().nativeUpdate(Company, { id: c.companyId }, { dueDate: before });
    const results = await Promise.all([1, 2, 3, 4, 5].map(() => hook({ pix: [{ txid }] })));
    expect(results.flatMap((r) => r.body.settled)).toEqual([txid]);
    expect((await companyRow(c.companyId)).dueDate).toBe(addRecurrence(before, 'MENSAL'));
  });

  it('extends from the old due date by the recurrence, month ends kept: 31 January + 1 month = 28 February', async () => {
    const { c, txid } = await charged('MonthEnd', '2099-01-31');
    expect((await t.api.post(`/subscription/sandbox/${txid}/pay`)).body.settled).toEqual([txid]);
    expect((await companyRow(c.companyId)).dueDate).toBe('2099-02-28');

    const quarterly = await charged('Quarterly', '2099-11-30', { recurrence: 'TRIMESTRAL' });
    expect((await t.api.post(`/subscription/sandbox/${quarterly.txid}/pay`)).body.settled).toEqual([quarterly.txid]);
    expect((await companyRow(quarterly.c.companyId)).dueDate).toBe('2100-02-28');
  });

  it('answers 404 for the sandbox payment of an unknown charge', async () => {
    expectError(await t.api.post('/subscription/sandbox/nosuchcharge0000000000000000/pay'), 404, 'ERR_NO_PAYMENT_FOUND');
  });
});

describe('recurrence arithmetic', () => {
  it.each([
    ['2025-01-31', 'MENSAL', '2025-02-28'],
    ['2024-01-31', 'MENSAL', '2024-02-29'],
    ['2025-03-31', 'MENSAL', '2025-04-30'],
    ['2025-01-15', 'MENSAL', '2025-02-15'],
    ['2025-12-31', 'BIMESTRAL', '2026-02-28'],
    ['2025-11-30', 'TRIMESTRAL', '2026-02-28'],
    ['2025-08-31', 'SEMESTRAL', '2026-02-28'],
    ['2024-02-29', 'ANUAL', '2025-02-28'],
    ['2025-12-15', 'ANUAL', '2026-12-15'],
  ])('%s + %s = %s', (from, recurrence, expected) => {
    expect(addRecurrence(from, recurrence)).toBe(expected);
  });
});

describe('Efí provider, against a local server speaking the Pix API v2 shapes over mutual TLS', () => {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const certs = path.join(here, 'providers', 'testdata');
  const ca = readFileSync(path.join(certs, 'ca.crt'));
  const CLIENT = { clientId: 'Client_Id_test', clientSecret: 'Client_Secret_test' };
  const PIX_KEY = 'cobrancas@example.com';
  const SECRET = 'a-webhook-secret-of-more-than-32-characters';
  interface Seen {
    method: string;
    url: string;
    authorization?: string;
    body: any;
    clientCert: boolean;
  }
  let server: Server;
  let baseUrl: string;
  const seen: Seen[] = [];
  const cobs = new Map<string, any>();
  let tokens = 0;
  let revokeNextToken = false;

  const readBody = (req: IncomingMessage) =>
    new Promise<any>((resolve) => {
      let text = '';
      req.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      req.on('end', () => resolve(text ? JSON.parse(text) : undefined));
    });

  beforeAll(async () => {
    server = createServer(
      { key: readFileSync(path.join(certs, 'server.key')), cert: readFileSync(path.join(certs, 'server.crt')), ca, requestCert: true, rejectUnauthorized: true },
      async (req, res) => {
        const body = await readBody(req);
        const entry: Seen = { method: req.method!, url: req.url!, authorization: req.headers.authorization, body, clientCert: (req.socket as any).authorized === true };
        seen.push(entry);
        const reply = (status: number, payload: unknown) => {
          res.writeHead(status, { 'content-type': 'application/json' });
          res.end(JSON.stringify(payload));
        };
        const bearer = `Bearer token-${tokens}`;
        if (req.method === 'POST' && req.url === '/oauth/token') {
          const expected = `Basic ${Buffer.from(`${CLIENT.clientId}:${CLIENT.clientSecret}`).toString('base64')}`;
          if (req.headers.authorization !== expected || body?.grant_type !== 'client_credentials') return reply(401, { error: 'invalid_client' });
          tokens += 1;
          return reply(200, { access_token: `token-${tokens}`, token_type: 'Bearer', expires_in: 3600, scope: 'cob.write cob.read pix.read webhook.write' });
        }
        if (req.headers.authorization !== bearer || revokeNextToken) {
          revokeNextToken = false;
          return reply(401, { nome: 'nao_autorizado', mensagem: 'token inválido' });
        }
        const cob = /^\/v2\/cob\/([A-Za-z0-9]+)$/.exec(req.url!);
        if (req.method === 'PUT' && cob) {
          const record = {
            calendario: { criacao: '2026-01-01T12:00:00.000Z', expiracao: body.calendario.expiracao },
            txid: cob[1],
            revisao: 0,
            loc: { id: 789 + cobs.size, location: `pix-h.example.com/v2/cobv/${cob[1]}`, tipoCob: 'cob', criacao: '2026-01-01T12:00:00.000Z' },
            location: `pix-h.example.com/v2/cobv/${cob[1]}`,
            status: 'ATIVA',
            valor: { original: body.valor.original },
            chave: body.chave,
            solicitacaoPagador: body.solicitacaoPagador,
          };
          cobs.set(cob[1], record);
          return reply(201, record);
        }
        if (req.method === 'GET' && cob) {
          const record = cobs.get(cob[1]);
          return record ? reply(200, record) : reply(404, { nome: 'cobranca_nao_encontrada', mensagem: 'Nenhuma cobrança encontrada para o txid informado' });
        }
        const loc = /^\/v2\/loc\/(\d+)\/qrcode$/.exec(req.url!);
        if (req.method === 'GET' && loc) {
          return reply(200, { qrcode: `00020101021226830014BR.GOV.BCB.PIX2561pix-h.example.com/loc${loc[1]}5204000053039865802BR6304ABCD`, imagemQrcode: 'data:image/png;base64,iVBORw0KGgo=', linkVisualizacao: 'https://example.com/v' });
        }
        const webhook = /^\/v2\/webhook\/(.+)$/.exec(req.url!);
        if (req.method === 'PUT' && webhook) return reply(200, { webhookUrl: body.webhookUrl });
        return reply(404, { nome: 'rota_nao_encontrada', mensagem: 'no such route' });
      },
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    baseUrl = `https://localhost:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const provider = (overrides: Record<string, unknown> = {}) =>
    createEfiProvider({
      ...CLIENT,
      certificate: path.join(certs, 'client.p12'),
      pixKey: PIX_KEY,
      sandbox: true,
      webhookSecret: SECRET,
      publicUrl: 'https://desk.example.com',
      logger: createLogger('silent'),
      baseUrl,
      ca,
      ...overrides,
    });
  const request = { invoice: { id: 42, detail: 'Pro', value: 149.9, dueDate: '2099-01-31' }, company: { id: 3, name: 'Acme' } };

  it('the local server really requires the client certificate', async () => {
    const { request: httpsRequest } = await import('node:https');
    const refused = await new Promise<string>((resolve) => {
      const req = httpsRequest(`${baseUrl}/oauth/token`, { method: 'POST', ca }, (res) => resolve(`answered ${res.statusCode}`));
      req.on('error', (err) => resolve(`refused: ${err.message}`));
      req.end();
    });
    expect(refused).toMatch(/^refused/);
  });

  it('creates an immediate charge for the invoice value and reads its copy-and-paste code', async () => {
    seen.length = 0;
    const efi = provider();
    const tokensBefore = tokens;
    const charge = await efi.createCharge(request);
    expect(charge.txid).toMatch(/^[A-Za-z0-9]{26,35}$/);
    expect(charge.value).toBe(149.9);
    // The location the local server gave this charge (its number counts every charge made so far).
    const loc = cobs.get(charge.txid).loc.id as number;
    expect(charge.qrcode).toMatch(new RegExp(`^000201.*/loc${loc}5204`));
    expect(seen.every((s) => s.clientCert)).toBe(true);
    expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual([
      'POST /oauth/token',
      `PUT /v2/webhook/${encodeURIComponent(PIX_KEY)}`,
      `PUT /v2/cob/${charge.txid}`,
      `GET /v2/loc/${loc}/qrcode`,
    ]);
    expect(seen[1].body).toEqual({
      webhookUrl: `https://desk.example.com/subscription/webhook?hmac=${webhookToken(SECRET)}&ignorar=`,
    });
    expect(seen[2].body).toEqual({
      calendario: { expiracao: 3600 },
      valor: { original: '149.90' },
      chave: PIX_KEY,
      solicitacaoPagador: 'Fatura 42',
      infoAdicionais: [{ nome: 'Fatura', valor: '42' }],
    });
    // The token this provider got; the local server counts those of every provider made so far.
    expect(tokens).toBe(tokensBefore + 1);
    expect(seen.slice(1).every((s) => s.authorization === `Bearer token-${tokens}`)).toBe(true);

    // The token and the webhook registration are reused by the next charge.
    seen.length = 0;
    const next = await efi.createCharge({ ...request, invoice: { ...request.invoice, id: 43, value: 10 } });
    expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual([`PUT /v2/cob/${next.txid}`, `GET /v2/loc/${cobs.get(next.txid).loc.id}/qrcode`]);
    expect(tokens).toBe(tokensBefore + 1);
    expect(seen[0].body.valor).toEqual({ original: '10.00' });
  });

  it('re-checks a charge (status and value) and knows an unknown one', async () => {
    const efi = provider();
    const charge = await efi.createCharge(request);
    expect(await efi.fetchCharge(charge.txid)).toEqual({ status: 'ATIVA', value: 149.9 });
    cobs.get(charge.txid).status = 'CONCLUIDA';
    expect(await efi.fetchCharge(charge.txid)).toEqual({ status: 'CONCLUIDA', value: 149.9 });
    expect(await efi.fetchCharge('a'.repeat(32))).toBeNull();
  });

  it('gets a new token once when Efí refuses the current one', async () => {
    const efi = provider();
    const charge = await efi.createCharge(request);
    const before = tokens;
    revokeNextToken = true;
    expect(await efi.fetchCharge(charge.txid)).toMatchObject({ status: 'ATIVA' });
    expect(tokens).toBe(before + 1);
  });

  it('turns refused credentials and a missing certificate chain into ERR_PAYMENT_PROVIDER_FAILED', async () => {
    await expect(provider({ clientSecret: 'wrong' }).createCharge(request)).rejects.toMatchObject({ code: 'ERR_PAYMENT_PROVIDER_FAILED' });
    // Without trusting the local CA the TLS handshake fails, as it would with a wrong host.
    await expect(provider({ ca: undefined }).fetchCharge('a'.repeat(32))).rejects.toMatchObject({ code: 'ERR_PAYMENT_PROVIDER_FAILED' });
  });

  it('verifies webhooks by the token in their URL', () => {
    const efi = provider();
    expect(efi.verifyWebhook({ query: { hmac: webhookToken(SECRET), ignorar: '/pix' }, headers: {} })).toBe(true);
    expect(efi.verifyWebhook({ query: { hmac: webhookToken('x'.repeat(40)) }, headers: {} })).toBe(false);
    expect(efi.verifyWebhook({ query: {}, headers: {} })).toBe(false);
    expect(efi.verifyWebhook({ query: { hmac: [webhookToken(SECRET).slice(1)] }, headers: {} })).toBe(false);
  });

  it('talks to Efí production or homologation hosts by default', async () => {
    const { EFI_BASE_URLS } = await import('./providers/efi.js');
    expect(EFI_BASE_URLS).toEqual({ production: 'https://pix.api.efipay.com.br', sandbox: 'https://pix-h.api.efipay.com.br' });
  });
});
