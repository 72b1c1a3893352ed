import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { describeInChromium, screens as screensOf, signIn, startHarness, type Harness } from './support/harness';

/**
 * The File lists and Quick messages screens in a real browser against the server as `npm start` runs it:
 * an admin builds a file list with two files (upload through the dialog), edits it, and the quick
 * messages page shows shared and switched-off ones. Screenshots at 1366 and 400 px, light and dark.
 */

const UI_TIMEOUT = 15_000;
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5f0e0830000000049454e44ae426082',
  'hex',
);

let h: Harness;
let page: Page;
let token = '';

const byTestId = (id: string) => page.getByTestId(id);


/** Screenshots at 1366 and 400 px, light and dark; `openDialog` (if any) opens a dialog for each shot. */
const screens = (name: string, openDialog?: () => Promise<void>) => screensOf(page, name, { openDialog, shoot: h.browser.screenshot });

describeInChromium('the web app in Chromium: file lists and quick messages', () => {
  beforeAll(async () => {
    h = await startHarness({ name: 'files' });
    page = h.browser.page;
    page.setDefaultTimeout(UI_TIMEOUT);
    await page.setViewportSize({ width: 1366, height: 800 });
  });

  afterAll(async () => {
    await h?.stop();
  });

  it('logs in as the admin', async () => {
    token = await signIn(page, h.server.adminEmail, h.server.adminPassword);
  });

  it('builds a file list with two files through the dialog, with the files stored by the server', async () => {
    await page.goto('/files');
    await page.waitForLoadState('networkidle');
    await byTestId('files-add').click();
    const dialog = byTestId('file-list-dialog');
    await byTestId('file-list-name').fill('Catálogo de verão');
    await byTestId('file-list-message').fill('Confira nossos produtos e a tabela de preços.');
    await byTestId('file-list-add-option').click();
    await byTestId('file-list-add-option').click();
    await byTestId('file-option-name-0').fill('Foto da vitrine');
    await byTestId('file-option-name-1').fill('Tabela de preços');
    await byTestId('file-option-file-0').setInputFiles({ name: 'vitrine.png', mimeType: 'image/png', buffer: PNG });
    await byTestId('file-option-file-1').setInputFiles({ name: 'tabela de preços.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4 tabela') });
    await expect.poll(() => byTestId('file-option-media-1').textContent()).toBe('tabela de preços.pdf');
    const uploaded = page.waitForResponse((res) => /\/files\/uploadList\/\d+$/.test(res.url()));
    await byTestId('file-list-save').click();
    const answer = await uploaded;
    expect(answer.status()).toBe(200);
    const saved = (await answer.json()) as { id: number; options: { path: string; mediaType: string; mediaUrl: string }[] };
    expect(saved.options.map((o) => o.mediaType)).toEqual(['image/png', 'application/pdf']);
    for (const o of saved.options) expect(o.path).toMatch(/^[A-Za-z0-9_-]{10,64}\.(png|pdf)$/);
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => byTestId(`file-list-count-${saved.id}`).textContent()).toBe('2 files');
    // The stored file is served through its signed URL.
    const file = await fetch(h.server.url + saved.options[0].mediaUrl);
    expect(Buffer.from(await file.arrayBuffer())).toEqual(PNG);

    // The success toast closes by itself (3 s); the shots are of the page without it.
    await expect.poll(() => page.getByText('File list saved.').count(), { timeout: UI_TIMEOUT }).toBe(0);
    await screens('files-page');
    await screens('files-dialog', async () => {
      await byTestId(`file-list-edit-${saved.id}`).click();
      await byTestId('file-list-dialog').waitFor();
    });
  });

  it('shows shared and switched-off quick messages on their page', async () => {
    const api = (body: unknown) =>
      fetch(`${h.server.url}/quick-messages`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect((await api({ shortcode: 'boasvindas', message: 'Olá! Seja bem-vindo à nossa loja.', geral: true })).status).toBe(201);
    expect((await api({ shortcode: 'pix', message: 'Nossa chave Pix é o CNPJ 12.345.678/0001-90.', status: false })).status).toBe(201);
    await page.goto('/quick-messages');
    await page.getByText('/boasvindas').waitFor();
    await screens('quick-messages-page');
    await screens('quick-message-dialog', async () => {
      await byTestId('quick-messages-add').click();
      await byTestId('quick-message-modal').waitFor();
    });
  });
});
