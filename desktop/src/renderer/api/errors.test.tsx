import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { AxiosError, AxiosHeaders } from 'axios';
import { describe, expect, it } from 'vitest';
import { ERROR_STATUS, LANGUAGES, TOAST_ERROR_MS, type ErrorCode } from '@atrium/shared';
import { AppProviders } from '../app/providers';
import { subscribeToasts, type ToastMessage } from '../components/toasts';
import { i18n } from '../i18n';
import { errorCodeOf, errorMessage, toastError } from './errors';

/** An API failure as axios reports it: status and body. */
const apiError = (status: number, data: unknown): AxiosError => {
  const config = { headers: new AxiosHeaders() };
  return new AxiosError('Request failed', 'ERR_BAD_RESPONSE', config, null, {
    status,
    statusText: '',
    headers: {},
    config,
    data,
  });
};

const CODES = Object.keys(ERROR_STATUS) as ErrorCode[];

describe('error messages', () => {
  it('has a translation for every error code of the catalogue in en, pt and es', async () => {
    for (const language of LANGUAGES) {
      await i18n.changeLanguage(language);
      for (const code of CODES) {
        const message = errorMessage(apiError(ERROR_STATUS[code], { error: code }));
        expect(message, `${language} ${code}`).not.toBe(code);
        expect(message.length, `${language} ${code}`).toBeGreaterThan(5);
        expect(i18n.getResource(language, 'common', `errors.${code}`), `${language} ${code} own text`).toBeTypeOf('string');
      }
    }
  });

  it('translates per language', async () => {
    const err = apiError(409, { error: 'ERR_OTHER_OPEN_TICKET' });
    await i18n.changeLanguage('en');
    expect(errorMessage(err)).toBe('There is already an open ticket for this contact.');
    await i18n.changeLanguage('pt');
    expect(errorMessage(err)).toBe('Já existe um atendimento aberto para este contato.');
    await i18n.changeLanguage('es');
    expect(errorMessage(err)).toBe('Ya existe un ticket abierto para este contacto.');
  });

  it('shows the raw text of a code it does not know', () => {
    expect(errorMessage(apiError(400, { error: 'ERR_SOMETHING_NEW' }))).toBe('ERR_SOMETHING_NEW');
    expect(errorMessage(apiError(400, { error: 'Plano já existe' }))).toBe('Plano já existe');
    expect(errorMessage(apiError(500, { message: 'Gateway said no' }))).toBe('Gateway said no');
    expect(errorMessage(new Error('boom'))).toBe('boom');
    expect(errorMessage('plain text')).toBe('plain text');
  });

  it('names the flows that still use a record it was asked to delete', async () => {
    await i18n.changeLanguage('en');
    const message = errorMessage(apiError(409, { error: 'ERR_INTEGRATION_USED_BY_FLOWS', flows: [{ id: 3, name: 'Sales' }, { id: 4, name: 'Support' }] }));
    expect(message).toBe('These flows use this integration in a Typebot node: "Sales", "Support". Change them first.');
  });

  it('puts the due date of an expired subscription into the message, dd/MM/yyyy', () => {
    const message = errorMessage(apiError(401, { error: 'ERR_SUBSCRIPTION_EXPIRED', dueDate: '2024-03-07' }));
    expect(message).toContain('07/03/2024');
    expect(message).toMatch(/contact support/);
  });

  it('names a network failure', () => {
    const err = new AxiosError('Network Error', 'ERR_NETWORK', { headers: new AxiosHeaders() });
    expect(errorMessage(err)).toBe('Could not reach the server. Check your connection.');
  });

  it('reads the code', () => {
    expect(errorCodeOf(apiError(403, { error: 'ERR_NO_PERMISSION' }))).toBe('ERR_NO_PERMISSION');
    expect(errorCodeOf(new Error('x'))).toBeUndefined();
  });
});

describe('toastError', () => {
  it('raises an error toast of 2 s with the translated message', () => {
    const seen: ToastMessage[] = [];
    const stop = subscribeToasts((t) => seen.push(t));
    toastError(apiError(403, { error: 'ERR_NO_PERMISSION' }));
    stop();
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({
      intent: 'error',
      message: 'You do not have permission to access this resource.',
      timeout: TOAST_ERROR_MS,
    });
    expect(TOAST_ERROR_MS).toBe(2000);
  });

  it('shows the toast on screen with a 2 s timer that closes it', async () => {
    render(
      <AppProviders>
        <div />
      </AppProviders>,
    );
    toastError(apiError(404, { error: 'ERR_NO_TICKET_FOUND' }));
    const text = await screen.findByText('No ticket found with this ID.');
    const toast = text.closest('[data-intent]') as HTMLElement;
    expect(toast.getAttribute('data-intent')).toBe('error');
    // Fluent times a toast with a CSS animation of the toast's timeout; its end closes the toast.
    const timer = document.querySelector('[data-timer-status]') as HTMLElement;
    expect(timer.style.animationDuration).toBe(`${TOAST_ERROR_MS}ms`);
    fireEvent.animationEnd(timer);
    await waitFor(() => expect(screen.queryByText('No ticket found with this ID.')).toBeNull());
  });

  it('shows an unknown code’s raw text on screen', async () => {
    render(
      <AppProviders>
        <div />
      </AppProviders>,
    );
    toastError(apiError(400, { error: 'Nome duplicado' }));
    expect(await screen.findByText('Nome duplicado')).toBeTruthy();
  });
});
