import { randomBytes } from 'node:crypto';
import ExcelJS from 'exceljs';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forSystem } from '../../db/tenant.js';
import {
  connectSocket,
  createTenant,
  eventually,
  nextEvent,
  startTestApp,
  type ApiResponse,
  type Tenant,
  type TestApp,
} from '../../../testing/helpers.js';
import { expectError, expectInvalid } from '../../../testing/expect.js';

let t: TestApp;
let a: Tenant;
let b: Tenant;
/** A company whose default connection is a live sandbox phone. */
let c: Tenant;
let cWhatsappId: number;
const sockets: Socket[] = [];

const uid = () => randomBytes(4).toString('hex');
let seq = 0;
/** A fresh, valid number (13 digits) that no other test uses. */
const newNumber = () => `5511${String(Date.now() % 1e6).padStart(6, '0')}${String(++seq).padStart(3, '0')}`;

const makeContact = async (tenant: Tenant, body: Record<string, unknown> = {}) => {
  const res = await t.api.post('/contacts', { name: `Contact ${uid()}`, number: newNumber(), ...body }, tenant.agent.token);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
};
const readContact = async (tenant: Tenant, id: number) => {
  const res = await t.api.get(`/contacts/${id}`, tenant.admin.token);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
};
const allContacts = async (tenant: Tenant) => (await t.api.get('/contacts/list', tenant.admin.token)).body as any[];
const sql = (query: string, params: unknown[] = []) => forSystem(t.app.orm.em).getConnection().execute(query, params);

const postForm = async (url: string, form: FormData, token: string) => {
  const res = await fetch(t.app.url + url, { method: 'POST', body: form, headers: { authorization: `Bearer ${token}` } });
  const text = await res.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    // keep the text
  }
  return { status: res.status, body, headers: res.headers } as ApiResponse;
};

const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const xlsxOf = async (rows: unknown[][], extraSheet?: unknown[][]) => {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Contatos');
  for (const row of rows) sheet.addRow(row);
  if (extraSheet) {
    const other = workbook.addWorksheet('Other');
    for (const row of extraSheet) other.addRow(row);
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
};
const fileForm = (data: Buffer, name: string, type: string) => {
  const form = new FormData();
  form.append('file', new Blob([data], { type }), name);
  return form;
};

beforeAll(async () => {
  t = await startTestApp();
  a = await createTenant(t, 'ContactA');
  b = await createTenant(t, 'ContactB');
  c = await createTenant(t, 'ContactC');
  const conn = await t.api.post('/whatsapp', { name: 'Phone', provider: 'sandbox' }, c.admin.token);
  expect(conn.status, JSON.stringify(conn.body)).toBe(201);
  cWhatsappId = conn.body.id;
  expect((await t.api.post(`/sandbox/${cWhatsappId}/scan`, {}, c.admin.token)).status).toBe(200);
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await t?.stop();
});

describe('authentication', () => {
  const endpoints: [string, string][] = [
    ['GET', '/contacts'],
    ['GET', '/contacts/list'],
    ['GET', '/contacts/1'],
    ['POST', '/contacts'],
    ['PUT', '/contacts/1'],
    ['DELETE', '/contacts/1'],
    ['POST', '/contacts/upload'],
    ['POST', '/contacts/import'],
  ];
  it.each(endpoints)('%s %s answers 401 without a token', async (method, url) => {
    expectError(await t.api.request(method, url, { body: method === 'GET' ? undefined : {} }), 401, 'ERR_SESSION_EXPIRED');
  });
});

describe('POST /contacts', () => {
  it('creates a contact with digits only, a lower-case email and its extra info, and announces it', async () => {
    const socket = await connectSocket(t.app.url, a.admin.token);
    sockets.push(socket);
    const heard = nextEvent(socket, `company-${a.companyId}-contact`);
    const res = await t.api.post(
      '/contacts',
      {
        name: '  Maria Silva ',
        number: '+55 (11) 98888-7001',
        email: ' Maria@Example.COM ',
        extraInfo: [
          { name: 'CPF', value: '123' },
          { name: 'Plano', value: 'Ouro' },
        ],
      },
      a.agent.token,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ name: 'Maria Silva', number: '5511988887001', email: 'maria@example.com', isGroup: false });
    expect(res.body.uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.body).toHaveProperty('profilePicUrl', '');
    expect(res.body.extraInfo.map((e: any) => [e.name, e.value])).toEqual([
      ['CPF', '123'],
      ['Plano', 'Ouro'],
    ]);
    expect(await readContact(a, res.body.id)).toEqual(res.body);
    const event = await heard;
    expect(event).toMatchObject({ action: 'create', contact: { id: res.body.id, number: '5511988887001' } });
  });

  it('accepts an empty email and no extra info', async () => {
    const res = await t.api.post('/contacts', { name: 'No Mail', number: newNumber(), email: '' }, a.agent.token);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ email: '', extraInfo: [] });
  });

  it('lists every failing field and creates nothing', async () => {
    const before = (await allContacts(a)).length;
    expectInvalid(await t.api.post('/contacts', {}, a.agent.token), 'name', 'number');
    expectInvalid(await t.api.post('/contacts', { name: 'A', number: newNumber() }, a.agent.token), 'name');
    expectInvalid(await t.api.post('/contacts', { name: 'x'.repeat(51), number: newNumber() }, a.agent.token), 'name');
    expectInvalid(await t.api.post('/contacts', { name: 'Short number', number: '(11) 9999-9' }, a.agent.token), 'number');
    expectInvalid(await t.api.post('/contacts', { name: 'Long number', number: '1'.repeat(51) }, a.agent.token), 'number');
    expectInvalid(await t.api.post('/contacts', { name: 'Letters', number: 'call me maybe' }, a.agent.token), 'number');
    expectInvalid(await t.api.post('/contacts', { name: 'Bad mail', number: newNumber(), email: 'not-an-email' }, a.agent.token), 'email');
    expectInvalid(
      await t.api.post('/contacts', { name: 'Bad extra', number: newNumber(), extraInfo: [{ value: 'no name' }] }, a.agent.token),
      'extraInfo.0.name',
    );
    expect((await allContacts(a)).length).toBe(before);
  });

  it('refuses a number already in the company, however it is written, with ERR_DUPLICATED_CONTACT', async () => {
    const number = newNumber();
    await makeContact(a, { number });
    const before = (await allContacts(a)).length;
    const masked = `+${number.slice(0, 2)} (${number.slice(2, 4)}) ${number.slice(4, 9)}-${number.slice(9)}`;
    expectError(await t.api.post('/contacts', { name: 'Twin', number: masked }, a.admin.token), 409, 'ERR_DUPLICATED_CONTACT');
    expect((await allContacts(a)).length).toBe(before);
    // Another company may know the same person.
    expect((await t.api.post('/contacts', { name: 'Same in B', number }, b.agent.token)).status).toBe(201);
  });

  it('stores the digits as typed when the company has no live connection', async () => {
    // 16 digits: no phone network would know it, but nothing asks one here.
    const res = await t.api.post('/contacts', { name: 'Offline', number: '1234567890123456' }, a.agent.token);
    expect(res.status).toBe(201);
    expect(res.body.number).toBe('1234567890123456');
  });

  it('checks the number with the default connection when its session is live', async () => {
    const ok = await t.api.post('/contacts', { name: 'On WhatsApp', number: '55 11 97777-0001' }, c.agent.token);
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    expect(ok.body.number).toBe('5511977770001');
    // The sandbox phone network knows 8 to 15 digits only.
    const before = (await allContacts(c)).length;
    expectError(await t.api.post('/contacts', { name: 'Not on WhatsApp', number: '1234567890123456' }, c.agent.token), 400, 'ERR_WAPP_INVALID_CONTACT');
    expect((await allContacts(c)).length).toBe(before);
  });
});

describe('GET /contacts', () => {
  let tag: string;
  beforeAll(async () => {
    tag = uid();
    // 32 contacts sharing a search term, through the bulk endpoint.
    const rows = Array.from({ length: 32 }, (_, i) => ({ Nome: `Page ${tag} ${String(i).padStart(2, '0')}`, Telefone: newNumber() }));
    const res = await t.api.post('/contacts/upload', rows, a.admin.token);
    expect(res.status).toBe(200);
    expect(res.body.newContacts).toHaveLength(32);
  });

  it('pages 30 by name with hasMore and count, profilePicUrl and uuid included', async () => {
    const first = await t.api.get(`/contacts?searchParam=${tag}&pageNumber=1`, a.agent.token);
    expect(first.status).toBe(200);
    expect(first.body.count).toBe(32);
    expect(first.body.hasMore).toBe(true);
    expect(first.body.contacts).toHaveLength(30);
    expect(first.body.contacts[0].name).toBe(`Page ${tag} 00`);
    expect(first.body.contacts[0]).toHaveProperty('profilePicUrl');
    expect(first.body.contacts[0].uuid).toMatch(/^[0-9a-f-]{36}$/);
    const second = await t.api.get(`/contacts?searchParam=${tag}&pageNumber=2`, a.agent.token);
    expect(second.body).toMatchObject({ count: 32, hasMore: false });
    expect(second.body.contacts.map((x: any) => x.name)).toEqual([`Page ${tag} 30`, `Page ${tag} 31`]);
  });

  it('searches name (any case), email and number (ignoring its mask)', async () => {
    const number = newNumber();
    const marker = uid();
    const contact = await makeContact(a, { name: `Zeca ${marker}`, number, email: `z${marker}@mail.test` });
    const ids = async (q: string) =>
      (await t.api.get(`/contacts?searchParam=${encodeURIComponent(q)}`, a.agent.token)).body.contacts.map((x: any) => x.id);
    expect(await ids(`ZECA ${marker.toUpperCase()}`)).toEqual([contact.id]);
    expect(await ids(`z${marker}@mail`)).toEqual([contact.id]);
    expect(await ids(`${number.slice(4, 8)}-${number.slice(8)}`)).toContain(contact.id);
    expect(await ids(`nothing-${marker}`)).toEqual([]);
    // Another company's contacts never show.
    expect((await t.api.get(`/contacts?searchParam=${marker}`, b.admin.token)).body.contacts).toEqual([]);
  });

  it('filters by creation day in the company time zone (date, dateStart, dateEnd)', async () => {
    const marker = uid();
    const early = await makeContact(a, { name: `Early ${marker}` });
    const late = await makeContact(a, { name: `Late ${marker}` });
    // 02:00 UTC on 1 January is still 31 December in São Paulo (UTC-3).
    await sql('update contacts set created_at = ? where id = ?', ['2024-01-01T02:00:00Z', early.id]);
    await sql('update contacts set created_at = ? where id = ?', ['2024-01-05T15:00:00Z', late.id]);
    const names = async (query: string) =>
      (await t.api.get(`/contacts?searchParam=${marker}&${query}`, a.agent.token)).body.contacts.map((x: any) => x.name);
    expect(await names('date=2023-12-31')).toEqual([`Early ${marker}`]);
    expect(await names('date=2024-01-01')).toEqual([]);
    expect(await names('dateStart=2024-01-01')).toEqual([`Late ${marker}`]);
    expect(await names('dateEnd=2024-01-04')).toEqual([`Early ${marker}`]);
    expect(await names('dateStart=2023-12-31&dateEnd=2024-01-05')).toEqual([`Early ${marker}`, `Late ${marker}`]);
  });

  it('refuses malformed query parameters', async () => {
    expectInvalid(await t.api.get('/contacts?pageNumber=0', a.agent.token), 'pageNumber');
    expectInvalid(await t.api.get('/contacts?date=31/12/2023', a.agent.token), 'date');
    expectInvalid(await t.api.get('/contacts?dateStart=yesterday', a.agent.token), 'dateStart');
  });
});

describe('GET /contacts/list and GET /contacts/{id}', () => {
  it('lists every contact of the company with minimal fields', async () => {
    const contact = await makeContact(a, { email: 'list@mail.test' });
    const list = await allContacts(a);
    expect(list.find((x) => x.id === contact.id)).toEqual({
      id: contact.id,
      name: contact.name,
      number: contact.number,
      email: 'list@mail.test',
      isGroup: false,
    });
    expect((await allContacts(b)).some((x) => x.id === contact.id)).toBe(false);
    // Naming the own company is fine; another company is for super users only.
    expect((await t.api.get(`/contacts/list?companyId=${a.companyId}`, a.agent.token)).status).toBe(200);
    expectError(await t.api.get(`/contacts/list?companyId=${b.companyId}`, a.admin.token), 403, 'ERR_NO_SUPER');
    const asSuper = await t.api.get(`/contacts/list?companyId=${a.companyId}`, t.superToken);
    expect(asSuper.body.some((x: any) => x.id === contact.id)).toBe(true);
  });

  it('shows a contact with extraInfo to any user of the company, 404 elsewhere', async () => {
    const contact = await makeContact(a, { extraInfo: [{ name: 'Origem', value: 'Site' }] });
    const res = await t.api.get(`/contacts/${contact.id}`, a.agent.token);
    expect(res.status).toBe(200);
    expect(res.body.extraInfo).toEqual([{ id: expect.any(Number), name: 'Origem', value: 'Site' }]);
    expectError(await t.api.get(`/contacts/${contact.id}`, b.admin.token), 404, 'ERR_NO_CONTACT_FOUND');
    expectError(await t.api.get('/contacts/999999', a.admin.token), 404, 'ERR_NO_CONTACT_FOUND');
    expectInvalid(await t.api.get('/contacts/abc', a.admin.token), 'id');
  });
});

describe('PUT /contacts/{id}', () => {
  it('changes only what is sent', async () => {
    const contact = await makeContact(a, { email: 'keep@mail.test', extraInfo: [{ name: 'K', value: 'V' }] });
    const res = await t.api.put(`/contacts/${contact.id}`, { name: 'Renamed Person' }, a.agent.token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'Renamed Person', number: contact.number, email: 'keep@mail.test' });
    expect(res.body.extraInfo.map((e: any) => e.name)).toEqual(['K']);
  });

  it('upserts extraInfo by id or name and deletes the items not sent', async () => {
    const contact = await makeContact(a, {
      extraInfo: [
        { name: 'A', value: '1' },
        { name: 'B', value: '2' },
        { name: 'C', value: '3' },
      ],
    });
    const [fa, fb] = contact.extraInfo;
    const res = await t.api.put(
      `/contacts/${contact.id}`,
      {
        extraInfo: [
          { id: fa.id, name: 'A renamed', value: '10' },
          { name: 'B', value: '20' },
          { name: 'D', value: '4' },
        ],
      },
      a.agent.token,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const byName = Object.fromEntries(res.body.extraInfo.map((e: any) => [e.name, e]));
    expect(Object.keys(byName).sort()).toEqual(['A renamed', 'B', 'D']);
    expect(byName['A renamed']).toEqual({ id: fa.id, name: 'A renamed', value: '10' });
    expect(byName.B).toEqual({ id: fb.id, name: 'B', value: '20' });
    expect((await readContact(a, contact.id)).extraInfo).toEqual(res.body.extraInfo);
    // An empty list clears them.
    const cleared = await t.api.put(`/contacts/${contact.id}`, { extraInfo: [] }, a.agent.token);
    expect(cleared.body.extraInfo).toEqual([]);
  });

  it('normalises a new number and refuses one another contact has (ERR_DUPLICATED_CONTACT), changing nothing', async () => {
    const first = await makeContact(a);
    const second = await makeContact(a);
    const fresh = newNumber();
    const moved = await t.api.put(`/contacts/${second.id}`, { number: `+${fresh}` }, a.agent.token);
    expect(moved.body.number).toBe(fresh);
    expectError(
      await t.api.put(`/contacts/${second.id}`, { name: 'Should not stick', number: first.number }, a.agent.token),
      409,
      'ERR_DUPLICATED_CONTACT',
    );
    const stored = await readContact(a, second.id);
    expect(stored).toMatchObject({ name: second.name, number: fresh });
    // Its own number again is no duplicate.
    expect((await t.api.put(`/contacts/${second.id}`, { number: fresh }, a.agent.token)).status).toBe(200);
  });

  it('checks a changed number with the live connection', async () => {
    const contact = (await t.api.post('/contacts', { name: 'Live edit', number: newNumber() }, c.agent.token)).body;
    expectError(await t.api.put(`/contacts/${contact.id}`, { number: '1234567890123456' }, c.agent.token), 400, 'ERR_WAPP_INVALID_CONTACT');
    expect((await readContact(c, contact.id)).number).toBe(contact.number);
  });

  it('lists invalid fields and changes nothing', async () => {
    const contact = await makeContact(a);
    expectInvalid(await t.api.put(`/contacts/${contact.id}`, { name: 'x', number: '123', email: 'bad' }, a.agent.token), 'name', 'number', 'email');
    expect(await readContact(a, contact.id)).toMatchObject({ name: contact.name, number: contact.number });
  });

  it("cannot reach another company's contact", async () => {
    const contact = await makeContact(a);
    expectError(await t.api.put(`/contacts/${contact.id}`, { name: 'Hijacked' }, b.admin.token), 404, 'ERR_NO_CONTACT_FOUND');
    expect((await readContact(a, contact.id)).name).toBe(contact.name);
  });
});

describe('DELETE /contacts/{id}', () => {
  it('is for admins only (contacts-page:deleteContact)', async () => {
    const contact = await makeContact(a);
    expectError(await t.api.del(`/contacts/${contact.id}`, a.agent.token), 403, 'ERR_NO_PERMISSION');
    await readContact(a, contact.id);
  });

  it("cannot delete another company's contact", async () => {
    const contact = await makeContact(a);
    expectError(await t.api.del(`/contacts/${contact.id}`, b.admin.token), 404, 'ERR_NO_CONTACT_FOUND');
    await readContact(a, contact.id);
  });

  it('deletes the contact with its tickets, messages and notes, and announces it', async () => {
    // A customer writes: a contact and a pending ticket appear.
    const from = '5511966660001';
    expect((await t.api.post(`/sandbox/${cWhatsappId}/messages`, { from, name: 'Ana', body: 'hi' }, c.admin.token)).status).toBe(201);
    const ticket = await eventually(async () => {
      const list = await t.api.get('/tickets?status=pending', c.admin.token);
      return list.body.tickets.find((x: any) => x.contact.number === from) ?? false;
    });
    const note = await t.api.post('/ticket-notes', { note: 'remember', ticketId: ticket.id, contactId: ticket.contactId }, c.admin.token);
    expect(note.status).toBe(201);
    const socket = await connectSocket(t.app.url, c.admin.token);
    sockets.push(socket);
    const heard = nextEvent(socket, `company-${c.companyId}-contact`);

    const res = await t.api.del(`/contacts/${ticket.contactId}`, c.admin.token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await heard).toEqual({ action: 'delete', contactId: ticket.contactId });
    expectError(await t.api.get(`/contacts/${ticket.contactId}`, c.admin.token), 404, 'ERR_NO_CONTACT_FOUND');
    expectError(await t.api.get(`/tickets/${ticket.id}`, c.admin.token), 404, 'ERR_NO_TICKET_FOUND');
    const left = await sql('select (select count(*)::int from messages where ticket_id = ?) as messages, (select count(*)::int from ticket_notes where ticket_id = ?) as notes', [ticket.id, ticket.id]);
    expect(left[0]).toEqual({ messages: 0, notes: 0 });
    expectError(await t.api.del(`/contacts/${ticket.contactId}`, c.admin.token), 404, 'ERR_NO_CONTACT_FOUND');
  });
});

describe('POST /contacts/upload', () => {
  it('creates good rows, reports bad ones, and accepts column aliases and numeric phone cells', async () => {
    const existing = await makeContact(a);
    const n1 = newNumber();
    const n2 = newNumber();
    const n3 = newNumber();
    const res = await t.api.post(
      '/contacts/upload',
      [
        { Nome: 'Upload One', Telefone: Number(n1), Email: 'ONE@mail.test' },
        { name: 'Upload Two', phone: `+${n2}` },
        { NAME: 'Upload Three', Número: n3, email: '' },
        { Nome: 'Upload Dup Db', Telefone: existing.number },
        { Nome: 'Upload Dup File', Telefone: n1 },
        { Nome: 'X', Telefone: newNumber() },
        { Nome: 'No Phone' },
        { Nome: 'Bad Mail', Telefone: newNumber(), Email: 'nope' },
        { Nome: '', Telefone: '', Email: '' },
      ],
      a.agent.token,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.newContacts.map((x: any) => x.contactName)).toEqual(['Upload One', 'Upload Two', 'Upload Three']);
    const verdicts = res.body.errorBag.map((x: any) => `${x.contactName}: ${x.error}`).sort();
    expect(verdicts).toEqual([
      'Bad Mail: ERR_VALIDATION',
      'No Phone: ERR_VALIDATION',
      'Upload Dup Db: ERR_DUPLICATED_CONTACT',
      'Upload Dup File: ERR_DUPLICATED_CONTACT',
      'X: ERR_VALIDATION',
    ]);
    const badMail = res.body.errorBag.find((x: any) => x.contactName === 'Bad Mail');
    expect(badMail.fields.map((f: any) => f.path)).toEqual(['email']);
    const one = await readContact(a, res.body.newContacts[0].contactId);
    expect(one).toMatchObject({ name: 'Upload One', number: n1, email: 'one@mail.test' });
    expect((await readContact(a, res.body.newContacts[1].contactId)).number).toBe(n2);
    expect((await readContact(a, res.body.newContacts[2].contactId)).number).toBe(n3);
  });

  it('refuses a body that is not a row array', async () => {
    expectInvalid(await t.api.post('/contacts/upload', { Nome: 'x' }, a.agent.token), '');
    expectInvalid(await t.api.post('/contacts/upload', ['row'], a.agent.token), '0');
  });

  it("creates contacts in the caller's company only", async () => {
    const number = newNumber();
    const res = await t.api.post('/contacts/upload', [{ Nome: 'Only B', Telefone: number }], b.agent.token);
    expect(res.body.newContacts).toHaveLength(1);
    expect((await allContacts(a)).some((x) => x.number === number)).toBe(false);
    expect((await allContacts(b)).some((x) => x.number === number)).toBe(true);
  });
});

describe('POST /contacts/import', () => {
  it('imports the first sheet of a real .xlsx file', async () => {
    const n1 = newNumber();
    const n2 = newNumber();
    const data = await xlsxOf(
      [
        ['Nome', 'Telefone', 'Email'],
        ['Sheet One', Number(n1), 'sheet1@mail.test'],
        ['Sheet Two', `+${n2.slice(0, 2)} (${n2.slice(2, 4)}) ${n2.slice(4)}`, ''],
        [],
        ['S', n1, ''],
        ['Sheet Dup', n1, ''],
      ],
      [['Nome', 'Telefone'], ['Second Sheet', newNumber()]],
    );
    const res = await postForm('/contacts/import', fileForm(data, 'contatos.xlsx', XLSX_MIME), a.agent.token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.newContacts.map((x: any) => x.contactName)).toEqual(['Sheet One', 'Sheet Two']);
    expect(res.body.errorBag.map((x: any) => [x.contactName, x.error])).toEqual([
      ['S', 'ERR_VALIDATION'],
      ['Sheet Dup', 'ERR_DUPLICATED_CONTACT'],
    ]);
    expect(await readContact(a, res.body.newContacts[0].contactId)).toMatchObject({ number: n1, email: 'sheet1@mail.test' });
    expect((await readContact(a, res.body.newContacts[1].contactId)).number).toBe(n2);
    expect((await allContacts(a)).some((x) => x.name === 'Second Sheet')).toBe(false);
  });

  it('accepts English headers and a workbook sent as a generic binary', async () => {
    const number = newNumber();
    const data = await xlsxOf([
      ['name', 'number', 'email'],
      ['English Header', number, 'en@mail.test'],
    ]);
    const res = await postForm('/contacts/import', fileForm(data, 'Contacts.XLSX', 'application/octet-stream'), a.agent.token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.newContacts.map((x: any) => x.contactName)).toEqual(['English Header']);
  });

  it('refuses other file types with 415 and creates nothing', async () => {
    const before = (await allContacts(a)).length;
    const csv = Buffer.from(`Nome;Telefone\nCsv Person;${newNumber()}\n`);
    expectError(await postForm('/contacts/import', fileForm(csv, 'contatos.csv', 'text/csv'), a.agent.token), 415, 'ERR_UNSUPPORTED_MEDIA_TYPE');
    expectError(await postForm('/contacts/import', fileForm(csv, 'contatos.xlsx', 'application/octet-stream'), a.agent.token), 415, 'ERR_UNSUPPORTED_MEDIA_TYPE');
    const realXlsx = await xlsxOf([['Nome', 'Telefone'], ['Renamed', newNumber()]]);
    expectError(await postForm('/contacts/import', fileForm(realXlsx, 'contatos.xls', 'application/octet-stream'), a.agent.token), 415, 'ERR_UNSUPPORTED_MEDIA_TYPE');
    expectError(await t.api.post('/contacts/import', [{ Nome: 'json', Telefone: newNumber() }], a.agent.token), 415, 'ERR_UNSUPPORTED_MEDIA_TYPE');
    expect((await allContacts(a)).length).toBe(before);
  });

  it('refuses a file over 5 MB with 413', async () => {
    const big = Buffer.alloc(5 * 1024 * 1024 + 10, 1);
    expectError(await postForm('/contacts/import', fileForm(big, 'big.xlsx', XLSX_MIME), a.agent.token), 413, 'ERR_PAYLOAD_TOO_LARGE');
  });

  it('asks for the file when none is sent', async () => {
    const form = new FormData();
    form.append('other', 'x');
    expectInvalid(await postForm('/contacts/import', form, a.agent.token), 'file');
  });

  /** A zip holding one stored, empty file, which may claim any unpacked size. */
  const tinyZip = (declaredSize = 0) => {
    const name = Buffer.from('a.txt');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt32LE(declaredSize, 24);
    central.writeUInt16LE(name.length, 28);
    const eocd = Buffer.alloc(22);
    eocd.writeUInt32LE(0x06054b50, 0);
    eocd.writeUInt16LE(1, 8);
    eocd.writeUInt16LE(1, 10);
    eocd.writeUInt32LE(46 + name.length, 12);
    eocd.writeUInt32LE(30 + name.length, 16);
    return Buffer.concat([local, name, central, name, eocd]);
  };

  it('refuses a zip that is not a workbook', async () => {
    expectInvalid(await postForm('/contacts/import', fileForm(tinyZip(), 'fake.xlsx', XLSX_MIME), a.agent.token), 'file');
  });

  it('refuses an archive that would unpack beyond 100 MB before unpacking it', async () => {
    expectError(await postForm('/contacts/import', fileForm(tinyZip(200 * 1024 * 1024), 'bomb.xlsx', XLSX_MIME), a.agent.token), 413, 'ERR_PAYLOAD_TOO_LARGE');
  });

  it('refuses more than 10000 rows, in a sheet (413) or a row array (400), creating nothing', async () => {
    const before = (await allContacts(a)).length;
    const rows: unknown[][] = [['Nome', 'Telefone']];
    for (let i = 0; i < 10001; i++) rows.push([`Many ${i}`, `55119${String(i).padStart(8, '0')}`]);
    expectError(await postForm('/contacts/import', fileForm(await xlsxOf(rows), 'many.xlsx', XLSX_MIME), a.agent.token), 413, 'ERR_PAYLOAD_TOO_LARGE');
    expectInvalid(await t.api.post('/contacts/upload', Array.from({ length: 10001 }, () => ({})), a.agent.token), '');
    expect((await allContacts(a)).length).toBe(before);
  });
});
