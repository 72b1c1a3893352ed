import ExcelJS from 'exceljs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { describeInChromium, screens as screensOf, signIn, startHarness, storySteps, type Harness } from './support/harness';

/**
 * A campaign from the screens, in a real browser against the server as `npm start` runs it with the
 * sandbox phone: the admin turns pacing off on /campaigns-config, makes a contact list and imports a
 * spreadsheet into it (its progress, duplicates and invalid rows shown), creates a campaign on the sandbox
 * connection starting now, and watches its report reach 100% and FINALIZADA, while the sandbox outbox
 * holds exactly one message per contact, each with the variant picked for it and the contact's name.
 * Screenshots at 1366 and 400 px, light and dark.
 */

const UI_TIMEOUT = 20_000;
/** The start job runs within Agenda's 5 s poll, the sweep within 20 s; the sends then go back to back. */
const CAMPAIGN_TIMEOUT = 90_000;

const CONTACTS = [
  { name: 'Ana Souza', number: '5511988880001', email: 'ana@example.com' },
  { name: 'Bruno Lima', number: '5511988880002', email: '' },
  { name: 'Carla Dias', number: '5511988880003', email: 'carla@example.com' },
];
const VARIANTS = ['Olá {nome}, a Black Friday começou!', 'Oi {nome}! Nossas ofertas de Black Friday já estão no ar.'];

let h: Harness;
let page: Page;
let token = '';
let connectionId = 0;
let listId = 0;
let campaignId = 0;
const { skipIfBroken, broken } = storySteps();

const byTestId = (id: string) => page.getByTestId(id);
const apiResponse = (method: string, path: RegExp) =>
  page.waitForResponse((res) => res.request().method() === method && path.test(new URL(res.url()).pathname));

/** Screenshots at 1366 and 400 px, light and dark; `openDialog` (if any) opens a dialog for each shot. */
const screens = (name: string, openDialog?: () => Promise<void>) => screensOf(page, name, { openDialog, shoot: h.browser.screenshot });

/** The spreadsheet a customer would upload: headers in other cases and accents, a duplicate and a bad number. */
const spreadsheet = async (): Promise<Buffer> => {
  const book = new ExcelJS.Workbook();
  const sheet = book.addWorksheet('Contatos');
  sheet.addRow(['NOME', 'Número', 'E-mail']);
  for (const c of CONTACTS) sheet.addRow([c.name, c.number, c.email]);
  sheet.addRow(['Ana de novo', CONTACTS[0].number, '']);
  sheet.addRow(['Número errado', '123', '']);
  return Buffer.from(await book.xlsx.writeBuffer());
};

const outbox = async () =>
  ((await h.api.get(`/sandbox/${connectionId}/outbox`, token)).body as { messages: { to: string; body: string }[] }).messages;

describeInChromium('the web app in Chromium: a campaign from a spreadsheet to its finished report', () => {
  beforeAll(async () => {
    h = await startHarness({ name: 'campaigns' });
    page = h.browser.page;
    page.setDefaultTimeout(UI_TIMEOUT);
    await page.setViewportSize({ width: 1366, height: 800 });
  });

  afterAll(async () => {
    if (page && broken()) await h.browser.screenshot('campaigns-failure').catch(() => undefined);
    await h?.stop();
  });

  it('logs in as the admin, with a connected sandbox phone and the campaign routes shown', async (ctx) => {
    skipIfBroken(ctx);
    await page.goto('/login');
    // The campaign routes exist only with the stored cshow flag (spec 02 section 2).
    await page.evaluate(() => localStorage.setItem('cshow', 'null'));
    token = await signIn(page, h.server.adminEmail, h.server.adminPassword);

    const connection = await h.api.post('/whatsapp', { name: 'Loja', provider: 'sandbox' }, token);
    expect(connection.status, JSON.stringify(connection.body)).toBe(201);
    connectionId = (connection.body as { id: number }).id;
    expect((await h.api.post(`/sandbox/${connectionId}/scan`, {}, token)).status).toBe(200);
  });

  it('turns pacing off on /campaigns-config', async (ctx) => {
    skipIfBroken(ctx);
    await page.goto('/campaigns-config');
    await byTestId('campaigns-config-message-interval').selectOption('0');
    await byTestId('campaigns-config-longer-after').selectOption('0');
    const saved = apiResponse('POST', /^\/campaign-settings\/?$/);
    await byTestId('campaigns-config-save').click();
    expect((await saved).status()).toBe(200);
    await page.getByText('Campaign settings saved.').first().waitFor();
    await expect.poll(() => page.getByText('Campaign settings saved.').count(), { timeout: UI_TIMEOUT }).toBe(0);
    await screens('campaigns-config');
  });

  it('makes a contact list and imports a spreadsheet into it, with duplicates and invalid rows told', async (ctx) => {
    skipIfBroken(ctx);
    await page.goto('/contact-lists');
    await byTestId('contact-lists-add').click();
    await byTestId('contact-list-name').fill('Clientes Black Friday');
    const created = apiResponse('POST', /^\/contact-lists\/?$/);
    await byTestId('contact-list-save').click();
    listId = ((await (await created).json()) as { id: number }).id;
    await byTestId(`contact-list-open-${listId}`).click();
    await page.waitForURL(`**/contact-lists/${listId}/contacts`);
    // The import needs the list read first (its button waits for it too).
    await byTestId('contact-list-items-list-name').waitFor();

    const uploaded = apiResponse('POST', new RegExp(`^/contact-lists/${listId}/upload$`));
    await byTestId('contact-list-import-input').setInputFiles({
      name: 'clientes.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: await spreadsheet(),
    });
    expect((await uploaded).status()).toBeLessThan(300);
    const done = byTestId('contact-list-import-done');
    await done.waitFor({ timeout: UI_TIMEOUT });
    expect(await done.textContent()).toContain('3 added, 1 duplicates skipped, 1 invalid rows');
    await byTestId('contact-list-import-invalid').waitFor();
    // The rows came in, and the connected sandbox phone checks their numbers.
    for (const c of CONTACTS) await page.getByText(c.name, { exact: true }).waitFor();
    await expect
      .poll(() => page.locator('[data-testid^="contact-list-item-valid-"][data-state="valid"]').count(), { timeout: UI_TIMEOUT })
      .toBe(CONTACTS.length);
    await screens('contact-list-items');
    await page.goto('/contact-lists');
    await expect.poll(() => byTestId(`contact-list-count-${listId}`).textContent()).toContain('3 on WhatsApp');
    await screens('contact-lists');
  });

  it('creates a campaign starting now on the sandbox connection, with two variants', async (ctx) => {
    skipIfBroken(ctx);
    await page.goto('/campaigns');
    await byTestId('campaigns-add').click();
    const dialog = byTestId('campaign-dialog');
    await dialog.waitFor();
    await byTestId('campaign-name').fill('Black Friday');
    await expect.poll(() => byTestId('campaign-whatsapp').locator('option').count()).toBe(2);
    await byTestId('campaign-whatsapp').selectOption(String(connectionId));
    await expect.poll(() => byTestId('campaign-contact-list').locator('option').count()).toBe(2);
    await byTestId('campaign-contact-list').selectOption(String(listId));
    await byTestId('campaign-message-1').fill(VARIANTS[0]);
    await byTestId('campaign-tab-2').click();
    await byTestId('campaign-message-2').fill(VARIANTS[1]);
    // Now, in the browser's own time: the campaign is due at once (an overdue start is taken too).
    const [date, time] = await page.evaluate(() => {
      const d = new Date();
      const p = (n: number) => String(n).padStart(2, '0');
      return [`${p(d.getDate())}/${p(d.getMonth() + 1)}/${d.getFullYear()}`, `${p(d.getHours())}:${p(d.getMinutes())}`];
    });
    await byTestId('campaign-scheduled-at-date').fill(date);
    await byTestId('campaign-scheduled-at-time').fill(time);
    await h.browser.screenshot('campaign-dialog-filled');
    const created = apiResponse('POST', /^\/campaigns\/?$/);
    await byTestId('campaign-save').click();
    const answer = await created;
    expect(answer.status()).toBe(201);
    const campaign = (await answer.json()) as { id: number; status: string };
    campaignId = campaign.id;
    expect(campaign.status).toBe('PROGRAMADA');
    await dialog.waitFor({ state: 'detached' });
  });

  it('the report reaches 100% and FINALIZADA live; every contact got exactly one message', async (ctx) => {
    skipIfBroken(ctx);
    await byTestId(`campaign-report-${campaignId}`).click();
    await page.waitForURL(`**/campaign/${campaignId}/report`);
    await expect
      .poll(() => byTestId('campaign-report-status').getAttribute('data-status'), { timeout: CAMPAIGN_TIMEOUT })
      .toBe('FINALIZADA');
    await expect.poll(() => byTestId('campaign-report-percent').getAttribute('data-percent')).toBe('100');
    expect(await byTestId('campaign-report-sent').textContent()).toBe('3');
    expect(await byTestId('campaign-report-failed').textContent()).toBe('0');

    const messages = await outbox();
    for (const c of CONTACTS) {
      const theirs = messages.filter((m) => m.to.includes(c.number));
      expect(theirs, c.name).toHaveLength(1);
      expect(VARIANTS.map((v) => v.replace('{nome}', c.name))).toContain(theirs[0].body.replace(/^\u200c/, ''));
    }
    expect(messages).toHaveLength(CONTACTS.length);
    // The save's toast closes by itself (3 s); the shots are of the page without it.
    await expect.poll(() => page.getByText('Campaign saved.').count(), { timeout: UI_TIMEOUT }).toBe(0);
    await screens('campaign-report');

    await page.goto('/campaigns');
    await expect.poll(() => byTestId(`campaign-status-${campaignId}`).getAttribute('data-status')).toBe('FINALIZADA');
    await screens('campaigns');
    // A finished campaign opens read-only.
    await screens('campaign-dialog-read-only', async () => {
      await byTestId(`campaign-edit-${campaignId}`).click();
      await byTestId('campaign-read-only').waitFor();
    });
  });
});
