import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { collectToasts, fakeServer, planReply, renderApp, signIn } from '../../../test/render';
import { CSV_FILE_NAME, contactsCsv, isXlsx } from '../api/contacts';

describe('contacts export', () => {
  it('is ; separated with the columns name;number;email, in contatos.csv', () => {
    const csv = contactsCsv([
      { name: 'Ana', number: '5511999990000', email: 'ana@x.com' },
      { name: 'Bob; Jr', number: '5511888880000', email: null },
    ]);
    expect(CSV_FILE_NAME).toBe('contatos.csv');
    expect(csv.split('\n')).toEqual(['name;number;email', 'Ana;5511999990000;ana@x.com', '"Bob; Jr";5511888880000;', '']);
  });
});

describe('contacts import', () => {
  it('accepts .xlsx only', () => {
    expect(isXlsx({ name: 'list.xlsx' })).toBe(true);
    expect(isXlsx({ name: 'LIST.XLSX' })).toBe(true);
    expect(isXlsx({ name: 'list.xls' })).toBe(false);
    expect(isXlsx({ name: 'list.csv' })).toBe(false);
    expect(isXlsx({ name: 'list.xlsx.exe' })).toBe(false);
  });

  const server = () =>
    fakeServer((call) => {
      if (call.url.startsWith('/companies/listPlan/')) return planReply();
      if (call.url === '/contacts' && call.method === 'GET') return { data: { contacts: [], hasMore: false, count: 0 } };
      if (call.url === '/contacts/import') {
        return {
          data: {
            newContacts: [{ contactId: 9, contactName: 'Carla' }],
            errorBag: [
              { contactName: 'Dup', error: 'ERR_DUPLICATED_CONTACT' },
              // As the server reports a row its schema refused: the column and zod's (English) text.
              {
                contactName: 'Bia',
                error: 'ERR_VALIDATION',
                fields: [
                  { path: 'number', message: 'Too small: expected string to have >=8 characters' },
                  { path: 'email', message: 'Invalid email address' },
                ],
              },
            ],
          },
        };
      }
      return { data: [] };
    });

  it('refuses another file type without calling the server', async () => {
    const calls = server();
    const toasts = collectToasts();
    signIn();
    renderApp('/contacts');
    const input = (await screen.findByTestId('contacts-import-input')) as HTMLInputElement;
    expect(input.accept).toContain('.xlsx');
    fireEvent.change(input, { target: { files: [new File(['a'], 'list.csv', { type: 'text/csv' })] } });
    await waitFor(() => expect(toasts.some((t) => t.intent === 'error')).toBe(true));
    expect(calls.some((c) => c.url === '/contacts/import')).toBe(false);
  });

  it('uploads an .xlsx as `file` and lists created contacts and per-contact errors', async () => {
    const calls = server();
    signIn();
    renderApp('/contacts');
    const input = (await screen.findByTestId('contacts-import-input')) as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File(['a'], 'list.xlsx')] } });
    const result = await screen.findByTestId('import-result');
    const call = calls.find((c) => c.url === '/contacts/import');
    expect((call?.data as FormData).get('file')).toBeTruthy();
    expect(result.textContent).toContain('#9 Carla');
    expect(result.textContent).toContain('Dup: A contact with this number already exists.');
    // A refused row says which columns were wrong and what a valid value looks like.
    expect(screen.getByTestId('import-error-1').textContent).toBe(
      'Bia: WhatsApp number: 8 to 50 digits; Email: not a valid address (leave it empty for none)',
    );
  });
});
