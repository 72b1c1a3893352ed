import { randomBytes } from 'node:crypto';
import ExcelJS from 'exceljs';
import * as XLSX from '@e965/xlsx';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectSocket,
  createTenant,
  eventually,
  startTestApp,
  type ApiResponse,
  type Tenant,
  type TestApp,
} from '../../../testing/helpers.js';
import { connectSandbox } from '../../../testing/conversation.js';
import { expectError, expectInvalid } from '../../../testing/expect.js';

let t: TestApp;
let a: Tenant;
let b: Tenant;
const sockets: Socket[] = [];
const uid = () => randomBytes(3).toString('hex');

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const XLS_TYPE = 'application/vnd.ms-excel';

const makeList = async (token = a.admin.token, name = `List ${uid()}`) => {
  const res = await t.api.post('/contact-lists', { name }, token);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: number; name: string };
};
const addItem = async (contactListId: number, body: Record<string, unknown>, token = a.admin.token) =>
  t.api.post('/contact-list-items', { contactListId, ...body }, token);

/** An .xlsx whose first sheet holds these rows (the first is the header). */
const xlsxOf = async (rows: unknown[][]) => {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Plan1');
  for (const row of rows) sheet.addRow(row);
  return Buffer.from(await workbook.xlsx.writeBuffer());
};
/** An .xls (BIFF8, the binary format ExcelJS cannot read) with these rows. */
const xlsOf = (rows: unknown[][]) => {
  const workbook = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(workbook, XLSX.utils.aoa_to_sheet(rows), 'Plan1');
  return Buffer.from(XLSX.write(workbook, { type: 'buffer', bookType: 'biff8' }) as Buffer);
};

const upload = async (listId: number, data: Buffer, name: string, type: string, token = a.admin.token): Promise<ApiResponse> => {
  const form = new FormData();
  form.append('file', new Blob([data], { type }), name);
  const res = await fetch(`${t.app.url}/contact-lists/${listId}/upload`, { method: 'POST', body: form, headers: { authorization: `Bearer ${token}` } });
  return { status: res.status, body: await res.json(), headers: res.headers };
};

/** Uploads and waits for the import to end; answers the finished import. */
const importSheet = async (listId: number, data: Buffer, name = 'contatos.xlsx', type = XLSX_TYPE) => {
  const res = await upload(listId, data, name, type);
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  return eventually(async () => {
    const { body } = await t.api.get(`/contact-lists/${listId}/import`, a.admin.token);
    return body.import.status === 'done' || body.import.status === 'failed' ? body.import : false;
  }, 15_000);
};

const itemsOf = async (listId: number, token = a.admin.token, query = '') => {
  const res = await t.api.get(`/contact-list-items?contactListId=${listId}${query}`, token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.contacts as { id: number; name: string; number: string; email: string; isWhatsappValid: boolean; checkedAt: string | null }[];
};

beforeAll(async () => {
  t = await startTestApp();
  a = await createTenant(t, 'ListsA');
  b = await createTenant(t, 'ListsB');
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await t?.stop();
});

describe('access', () => {
  it.each([
    ['GET', '/contact-lists'],
    ['GET', '/contact-lists/list'],
    ['POST', '/contact-lists'],
    ['GET', '/contact-lists/1'],
    ['PUT', '/contact-lists/1'],
    ['DELETE', '/contact-lists/1'],
    ['POST', '/contact-lists/1/upload'],
    ['GET', '/contact-lists/sample'],
    ['GET', '/contact-list-items?contactListId=1'],
    ['POST', '/contact-list-items'],
    ['PUT', '/contact-list-items/1'],
    ['DELETE', '/contact-list-items/1'],
  ])('%s %s needs a session', async (method, url) => {
    expect((await t.api.request(method, url, method === 'GET' ? {} : { body: {} })).status).toBe(401);
  });

  it('is refused (403) to a company whose plan has no campaigns', async () => {
    const plan = await t.api.post('/plans', { name: `No campaigns ${uid()}`, users: 5, connections: 5, queues: 5, useCampaigns: false }, t.superToken);
    expect(plan.status, JSON.stringify(plan.body)).toBe(201);
    const c = await createTenant(t, 'NoCampaigns', plan.body.id);
    expectError(await t.api.get('/contact-lists', c.admin.token), 403, 'ERR_PLAN_FEATURE_DISABLED');
    expectError(await t.api.post('/contact-lists', { name: 'Leads' }, c.admin.token), 403, 'ERR_PLAN_FEATURE_DISABLED');
    expectError(await t.api.get('/contact-list-items?contactListId=1', c.agent.token), 403, 'ERR_PLAN_FEATURE_DISABLED');
  });

  it('is open to agents of the company (spec 02 section 6: contact lists are unrestricted)', async () => {
    const list = await makeList(a.agent.token);
    expect((await addItem(list.id, { name: 'Ana', number: '5511999990001' }, a.agent.token)).status).toBe(201);
    expect((await t.api.del(`/contact-lists/${list.id}`, a.agent.token)).status).toBe(200);
  });

  it("never shows or changes another company's lists and items (404)", async () => {
    const list = await makeList();
    const item = (await addItem(list.id, { name: 'Bruno', number: '5511999990002' })).body;
    expectError(await t.api.get(`/contact-lists/${list.id}`, b.admin.token), 404, 'ERR_NO_CONTACT_LIST_FOUND');
    expectError(await t.api.put(`/contact-lists/${list.id}`, { name: 'Mine' }, b.admin.token), 404, 'ERR_NO_CONTACT_LIST_FOUND');
    expectError(await t.api.del(`/contact-lists/${list.id}`, b.admin.token), 404, 'ERR_NO_CONTACT_LIST_FOUND');
    expectError(await t.api.get(`/contact-list-items?contactListId=${list.id}`, b.admin.token), 404, 'ERR_NO_CONTACT_LIST_FOUND');
    expectError(await addItem(list.id, { name: 'Intruder', number: '5511999990003' }, b.admin.token), 404, 'ERR_NO_CONTACT_LIST_FOUND');
    expectError(await t.api.get(`/contact-list-items/${item.id}`, b.admin.token), 404, 'ERR_NO_CONTACT_LIST_ITEM_FOUND');
    expectError(await t.api.put(`/contact-list-items/${item.id}`, { name: 'Changed' }, b.admin.token), 404, 'ERR_NO_CONTACT_LIST_ITEM_FOUND');
    expectError(await t.api.del(`/contact-list-items/${item.id}`, b.admin.token), 404, 'ERR_NO_CONTACT_LIST_ITEM_FOUND');
    expectError(await upload(list.id, await xlsxOf([['Nome', 'Número'], ['X', '5511999990004']]), 'x.xlsx', XLSX_TYPE, b.admin.token), 404, 'ERR_NO_CONTACT_LIST_FOUND');
    const listsOfB = (await t.api.get('/contact-lists/list', b.admin.token)).body as { id: number }[];
    expect(listsOfB.map((l) => l.id)).not.toContain(list.id);
    expect((await itemsOf(list.id)).map((i) => i.name)).toEqual(['Bruno']);
  });
});

describe('lists and items', () => {
  it('creates, lists with counts, renames and deletes a list', async () => {
    const list = await makeList(a.admin.token, `Clientes ${uid()}`);
    await addItem(list.id, { name: 'Carla', number: '(11) 99999-0005', email: 'carla@example.com' });
    await addItem(list.id, { name: 'Davi', number: '+55 11 99999-0006' });
    const page = await t.api.get(`/contact-lists?searchParam=${encodeURIComponent(list.name)}`, a.admin.token);
    expect(page.status).toBe(200);
    expect(page.body.records).toEqual([expect.objectContaining({ id: list.id, contactsCount: 2, uncheckedCount: 2, validCount: 0 })]);
    expect(page.body.hasMore).toBe(false);
    const renamed = await t.api.put(`/contact-lists/${list.id}`, { name: 'Clientes VIP' }, a.admin.token);
    expect(renamed.body).toMatchObject({ id: list.id, name: 'Clientes VIP' });
    expect((await t.api.del(`/contact-lists/${list.id}`, a.admin.token)).status).toBe(200);
    expectError(await t.api.get(`/contact-lists/${list.id}`, a.admin.token), 404, 'ERR_NO_CONTACT_LIST_FOUND');
  });

  it('validates names, numbers and emails (spec 02 section 5)', async () => {
    expectInvalid(await t.api.post('/contact-lists', { name: 'A' }, a.admin.token), 'name');
    expectInvalid(await t.api.post('/contact-lists', { name: 'x'.repeat(51) }, a.admin.token), 'name');
    expectInvalid(await t.api.post('/contact-lists', {}, a.admin.token), 'name');
    const list = await makeList();
    expectInvalid(await addItem(list.id, { name: 'E', number: '5511999990007' }), 'name');
    expectInvalid(await addItem(list.id, { name: 'Eva', number: '1234567' }), 'number');
    expectInvalid(await addItem(list.id, { name: 'Eva', number: '5511999990007', email: 'not-an-email' }), 'email');
    expectInvalid(await t.api.post('/contact-list-items', { name: 'Eva', number: '5511999990007' }, a.admin.token), 'contactListId');
    expectInvalid(await t.api.get('/contact-list-items', a.admin.token), 'contactListId');
    expect(await itemsOf(list.id)).toEqual([]);
  });

  it('keeps a number once per list, stored as digits', async () => {
    const list = await makeList();
    const first = await addItem(list.id, { name: 'Fabio', number: '+55 (11) 99999-0008' });
    expect(first.body).toMatchObject({ number: '5511999990008', isWhatsappValid: false, checkedAt: null });
    expectError(await addItem(list.id, { name: 'Fabio 2', number: '5511999990008' }), 409, 'ERR_CONTACT_LIST_ITEM_DUPLICATED');
    const other = await addItem(list.id, { name: 'Gil', number: '5511999990009' });
    expectError(await t.api.put(`/contact-list-items/${other.body.id}`, { number: '5511999990008' }, a.admin.token), 409, 'ERR_CONTACT_LIST_ITEM_DUPLICATED');
    const edited = await t.api.put(`/contact-list-items/${other.body.id}`, { name: 'Gilberto', email: 'gil@example.com' }, a.admin.token);
    expect(edited.body).toMatchObject({ name: 'Gilberto', email: 'gil@example.com', number: '5511999990009' });
    expect((await t.api.del(`/contact-list-items/${other.body.id}`, a.admin.token)).status).toBe(200);
    expect((await itemsOf(list.id)).map((i) => i.number)).toEqual(['5511999990008']);
  });

  it('searches items by name and by number digits', async () => {
    const list = await makeList();
    await addItem(list.id, { name: 'Helena Prado', number: '5531988880001' });
    await addItem(list.id, { name: 'Igor Lima', number: '5531988880002' });
    expect((await itemsOf(list.id, a.admin.token, '&searchParam=helena')).map((i) => i.name)).toEqual(['Helena Prado']);
    expect((await itemsOf(list.id, a.admin.token, '&searchParam=8880002')).map((i) => i.name)).toEqual(['Igor Lima']);
  });

  it('announces changes to the company only, with the list id', async () => {
    const list = await makeList();
    const mine = await connectSocket(t.app.url, a.agent.token);
    const theirs = await connectSocket(t.app.url, b.admin.token);
    sockets.push(mine, theirs);
    const heardByB: unknown[] = [];
    theirs.onAny((event, payload) => heardByB.push({ event, payload }));
    const created = new Promise<any>((resolve) => mine.on(`company-${a.companyId}-ContactListItem`, (p) => p.action === 'create' && resolve(p)));
    await addItem(list.id, { name: 'Joana', number: '5511999990010' });
    expect(await created).toMatchObject({ action: 'create', contactListId: list.id, record: { name: 'Joana' } });
    expect(heardByB).toEqual([]);
  });
});

describe('import', () => {
  it('reads .xlsx headers in any case and accent, pt, en or es, skipping duplicates and reporting invalid rows', async () => {
    const list = await makeList();
    await addItem(list.id, { name: 'Already', number: '5511977770001' });
    const sheet = await xlsxOf([
      ['NOME', 'Número', 'E-mail'],
      ['Kátia', '+55 11 97777-0002', 'katia@example.com'],
      ['Leo', '5511977770003', ''],
      ['Already again', '5511977770001', ''],
      ['Leo twice', '55 11 97777 0003', ''],
      ['Bad number', '12345', ''],
      ['Bad email', '5511977770004', 'nope'],
      [null, null, null],
      ['', '5511977770005', ''],
    ]);
    const done = await importSheet(list.id, sheet);
    // The blank line is no row.
    expect(done).toMatchObject({ status: 'done', total: 7, processed: 7, created: 3, duplicates: 2, invalid: 2, error: null });
    const items = await itemsOf(list.id);
    expect(items.map((i) => [i.name, i.number, i.email]).sort()).toEqual(
      [
        ['5511977770005', '5511977770005', ''],
        ['Already', '5511977770001', ''],
        ['Kátia', '5511977770002', 'katia@example.com'],
        ['Leo', '5511977770003', ''],
      ].sort(),
    );
    const report = await fetch(`${t.app.url}/contact-lists/${list.id}/import/${done.id}/invalid`, { headers: { authorization: `Bearer ${a.admin.token}` } });
    expect(report.status).toBe(200);
    expect(report.headers.get('content-type')).toContain('text/csv');
    const lines = (await report.text()).replace(/^\ufeff/, '').split('\r\n');
    expect(lines).toEqual(['"row";"name";"number";"email";"reason"', '"6";"Bad number";"12345";"";"invalidNumber"', '"7";"Bad email";"5511977770004";"nope";"invalidEmail"']);
    // Another company cannot read the report.
    expectError(await t.api.get(`/contact-lists/${list.id}/import/${done.id}/invalid`, b.admin.token), 404, 'ERR_NO_CONTACT_LIST_FOUND');
  });

  it('reads a binary .xls (which ExcelJS cannot) with English and Spanish headers', async () => {
    const en = await makeList();
    const doneEn = await importSheet(en.id, xlsOf([['Name', 'Phone', 'Email'], ['Mona', 5511966660001, 'mona@example.com'], ['Nico', '5511966660002', '']]), 'list.xls', XLS_TYPE);
    expect(doneEn).toMatchObject({ status: 'done', created: 2, invalid: 0 });
    expect((await itemsOf(en.id)).map((i) => i.number).sort()).toEqual(['5511966660001', '5511966660002']);
    const es = await makeList();
    const doneEs = await importSheet(es.id, xlsOf([['Nombre', 'Teléfono', 'Correo'], ['Óscar', '5511966660003', 'oscar@example.com']]), 'lista.xls', XLS_TYPE);
    expect(doneEs).toMatchObject({ status: 'done', created: 1 });
    expect(await itemsOf(es.id)).toEqual([expect.objectContaining({ name: 'Óscar', email: 'oscar@example.com' })]);
  });

  it('shows its progress over realtime, to the company', async () => {
    const list = await makeList();
    const socket = await connectSocket(t.app.url, a.admin.token);
    sockets.push(socket);
    const events: any[] = [];
    socket.on(`company-${a.companyId}-ContactListItem`, (p) => p.contactListId === list.id && events.push({ ...p, at: Date.now() }));
    const rows: unknown[][] = [['Nome', 'Numero']];
    for (let i = 0; i < 1200; i++) rows.push([`Pessoa ${i}`, `55119555${String(i).padStart(5, '0')}`]);
    const done = await importSheet(list.id, await xlsxOf(rows));
    expect(done).toMatchObject({ status: 'done', created: 1200 });
    await eventually(() => events.some((e) => e.action === 'reload'));
    const progress = events.filter((e) => e.action === 'import');
    expect(progress.at(-1).import).toMatchObject({ status: 'done', processed: 1200, total: 1200 });
    expect(progress.length).toBeGreaterThanOrEqual(2);
    // Throttled: at most one a second while it runs (the final one is always said).
    const running = progress.filter((e) => e.import.status === 'running').map((e) => e.at as number);
    for (let i = 1; i < running.length; i++) expect(running[i] - running[i - 1]).toBeGreaterThanOrEqual(900);
  });

  it('refuses what is not a spreadsheet, and fails a broken one with the reason', async () => {
    const list = await makeList();
    expectError(await upload(list.id, Buffer.from('name;number\nAna;5511999990011'), 'contatos.xlsx', XLSX_TYPE), 415, 'ERR_UNSUPPORTED_MEDIA_TYPE');
    expectError(await upload(list.id, Buffer.from('%PDF-1.4'), 'contatos.pdf', 'application/pdf'), 415, 'ERR_UNSUPPORTED_MEDIA_TYPE');
    // A zip signature with garbage after it: not an archive at all.
    expectError(await upload(list.id, Buffer.concat([Buffer.from('PK\x03\x04'), randomBytes(200)]), 'broken.xlsx', XLSX_TYPE), 400, 'ERR_SPREADSHEET_UNREADABLE');
    const missing = await t.api.request('POST', `/contact-lists/${list.id}/upload`, { token: a.admin.token, body: {} });
    expect(missing.status).toBe(415);
    // A real zip that is no workbook, and an .xls signature with nothing behind it: the import fails, saying so.
    const workbook = await xlsxOf([['Nome', 'Número'], ['Ana', '5511999990011']]);
    const truncated = workbook.subarray(0, Math.floor(workbook.length / 2));
    const broken = await upload(list.id, truncated, 'half.xlsx', XLSX_TYPE);
    if (broken.status === 202) {
      const failed = await eventually(async () => {
        const { body } = await t.api.get(`/contact-lists/${list.id}/import`, a.admin.token);
        return body.import.status === 'failed' ? body.import : false;
      }, 10_000);
      expect(failed.error).toBe('ERR_SPREADSHEET_UNREADABLE');
    } else {
      expectError(broken, 400, 'ERR_SPREADSHEET_UNREADABLE');
    }
    const fakeXls = Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), randomBytes(600)]);
    const failedXls = await importSheet(list.id, fakeXls, 'broken.xls', XLS_TYPE);
    expect(failedXls).toMatchObject({ status: 'failed', error: 'ERR_SPREADSHEET_UNREADABLE' });
    const noNumber = await importSheet(list.id, await xlsxOf([['Nome', 'Cidade'], ['Ana', 'Recife']]));
    expect(noNumber).toMatchObject({ status: 'failed', error: 'ERR_SPREADSHEET_UNREADABLE' });
    expect(await itemsOf(list.id)).toEqual([]);
  });

  it('offers the sample spreadsheet in the user language, which imports as it is', async () => {
    const res = await fetch(`${t.app.url}/contact-lists/sample?lang=es`, { headers: { authorization: `Bearer ${a.admin.token}` } });
    expect(res.status).toBe(200);
    const data = Buffer.from(await res.arrayBuffer());
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(data as unknown as Parameters<typeof workbook.xlsx.load>[0]);
    expect(workbook.worksheets[0].getRow(1).values).toEqual([undefined, 'Nombre', 'Número', 'Email']);
    const list = await makeList();
    expect(await importSheet(list.id, data)).toMatchObject({ status: 'done', created: 2 });
  });
});

describe('WhatsApp check of the numbers', () => {
  it('without a connected connection, leaves the numbers unchecked and says why', async () => {
    const c = await createTenant(t, 'NoPhone');
    const list = await makeList(c.admin.token);
    await addItem(list.id, { name: 'Paula', number: '5511944440001' }, c.admin.token);
    const state = await eventually(async () => {
      const { body } = await t.api.get(`/contact-lists/${list.id}`, c.admin.token);
      return body.checkState === 'noConnection' ? body : false;
    }, 10_000);
    expect(state).toMatchObject({ uncheckedCount: 1, validCount: 0 });
  });

  it('checks new numbers through the connected connection, one by one, and can run again', async () => {
    const c = await createTenant(t, 'Phone');
    await connectSandbox(t.api, c.admin.token);
    const list = await makeList(c.admin.token);
    // The sandbox phone says numbers of 8 to 15 digits are on WhatsApp.
    await addItem(list.id, { name: 'Quim', number: '5511933330001' }, c.admin.token);
    await addItem(list.id, { name: 'Rita', number: '5511933330002000000' }, c.admin.token);
    const checked = await eventually(async () => {
      const { body } = await t.api.get(`/contact-lists/${list.id}`, c.admin.token);
      return body.checkState === 'idle' && body.uncheckedCount === 0 ? body : false;
    }, 10_000);
    expect(checked).toMatchObject({ validCount: 1, invalidCount: 1 });
    const items = await itemsOf(list.id, c.admin.token);
    expect(items.find((i) => i.name === 'Quim')).toMatchObject({ isWhatsappValid: true, checkedAt: expect.any(String) });
    expect(items.find((i) => i.name === 'Rita')).toMatchObject({ isWhatsappValid: false, checkedAt: expect.any(String) });

    const again = await t.api.post(`/contact-lists/${list.id}/check`, { all: true }, c.admin.token);
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ checkState: 'checking', uncheckedCount: 2 });
    await eventually(async () => (await t.api.get(`/contact-lists/${list.id}`, c.admin.token)).body.uncheckedCount === 0, 10_000);
  });
});
