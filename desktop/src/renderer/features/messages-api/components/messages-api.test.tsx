import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { i18n } from '../../../i18n';
import { useAuthStore } from '../../../stores/auth-store';
import { collectToasts, fakeServer, planReply, renderApp, signIn, type FakeCall } from '../../../test/render';
import { openApiFixture } from '../test/openapi-fixture';

const SENT = {
  mensagem: 'Mensagem enviada',
  messageId: 41,
  ticketId: 7,
  contactId: 9,
  number: '5511987654321',
  status: 'queued',
  messages: [{ id: 41, wid: '3EB0ABC', type: 'chat' }],
  ticketClosed: false,
};

/** The layout's calls, the document and the API itself; `api` answers the token calls. */
const serve = (api: (call: FakeCall) => { status?: number; data?: unknown } | undefined = () => ({ data: SENT }), flags = { useExternalApi: true }) =>
  fakeServer((call) => {
    if (call.url.startsWith('/companies/listPlan/')) return planReply(flags);
    if (call.url === '/api/openapi.json') return { data: openApiFixture() };
    if (call.url.startsWith('/api/messages')) return api(call);
    if (call.url.startsWith('/whatsapp')) return { data: [] };
    return undefined;
  });

const type = (testId: string, value: string) => fireEvent.change(screen.getByTestId(testId), { target: { value } });
const header = (call: FakeCall, name: string) => Object.entries(call.headers).find(([k]) => k.toLowerCase() === name.toLowerCase())?.[1];

describe('Messages API page', () => {
  it('documents both calls from the OpenAPI document: fields, bodies, responses and examples for this server', async () => {
    serve();
    signIn({ profile: 'admin' });
    renderApp('/messages-api');
    const send = await screen.findByTestId('api-op-sendMessage');
    expect(within(send).getByRole('heading', { level: 3 }).textContent).toBe('Send a message');
    expect(within(send).getByText('/api/messages/send')).toBeTruthy();

    const json = screen.getByTestId('api-op-sendMessage-body-json');
    const number = json.querySelector('[data-field="number"]')!;
    expect(number.textContent).toContain('string');
    expect(number.textContent).toContain('required');
    expect(json.querySelector('[data-field="body"]')!.textContent).toContain('up to 4096 characters');
    expect(json.querySelector('[data-field="closeTicket"]')!.textContent).toContain('optional');
    expect(json.querySelector('[data-field="closeTicket"]')!.textContent).toContain('default false');
    const multipart = screen.getByTestId('api-op-sendMessage-body-form-data');
    expect(multipart.querySelector('[data-field="medias"]')!.textContent).toContain('file[]');
    // The answer's fields, a list's items by dotted name.
    const ok = screen.getByTestId('api-op-sendMessage-response-200');
    expect(ok.querySelector('[data-field="messages[].wid"]')).toBeTruthy();
    const responses = screen.getByTestId('api-op-sendMessage-responses');
    expect([...responses.querySelectorAll('[data-status]')].map((e) => e.getAttribute('data-status'))).toEqual(['200', '401', '429', '503']);
    expect(responses.querySelector('[data-status="429"]')!.textContent).toContain('Retry-After');
    expect(screen.getByTestId('api-op-sendMessage-parameters').textContent).toContain('Idempotency-Key (header)');

    const examples = screen.getAllByTestId('api-op-sendMessage-example').map((e) => e.textContent ?? '');
    expect(examples[0]).toContain(`curl -X POST '${window.location.origin}/api/messages/send'`);
    expect(examples[0]).toContain("-H 'Authorization: Bearer <token>'");
    expect(examples[0]).toContain('Idempotency-Key:');
    expect(examples[1]).toContain("-F 'medias=@boleto.pdf'");
    expect(screen.getByTestId('api-op-getMessageStatus').textContent).toContain('/api/messages/{id}');
    expect(screen.getByTestId('api-openapi-link').getAttribute('href')).toBe(`${window.location.origin}/api/openapi.json`);
  });

  it('is in the language chosen', async () => {
    serve();
    signIn({ profile: 'admin' });
    await i18n.changeLanguage('pt');
    try {
      renderApp('/messages-api');
      expect(await screen.findByRole('heading', { level: 1, name: 'API de mensagens' })).toBeTruthy();
      expect(within(await screen.findByTestId('api-op-sendMessage')).getByRole('heading', { level: 3 }).textContent).toBe('Enviar uma mensagem');
      expect(screen.getByTestId('api-op-sendMessage-body-json').textContent).toContain('obrigatório');
      await i18n.changeLanguage('es');
      await waitFor(() => expect(screen.getByRole('heading', { level: 2 }).textContent).toBe('Pruébelo'));
    } finally {
      await i18n.changeLanguage('en');
    }
  });

  it('sends a text with the typed connection token (not the session\'s) and the Idempotency-Key, shows the answer and the status', async () => {
    const calls = serve((call) => (call.method === 'GET' ? { data: { id: 41, status: 'delivered', ack: 2 } } : { data: SENT }));
    signIn({ profile: 'admin' });
    renderApp('/messages-api');
    await screen.findByTestId('api-test');
    // Nothing leaves without the token and a number.
    fireEvent.click(screen.getByTestId('api-test-send'));
    expect((await screen.findAllByText('Required')).length).toBe(3);
    expect(calls.filter((c) => c.url === '/api/messages/send')).toEqual([]);

    type('api-test-token', '  conn-token-123 ');
    type('api-test-number', '+55 (11) 98765-4321');
    type('api-test-body', 'Olá {{name}}');
    type('api-test-key', 'pedido-1');
    fireEvent.click(screen.getByTestId('api-test-close'));
    fireEvent.click(screen.getByTestId('api-test-send'));
    const reply = await screen.findByTestId('api-test-reply');
    expect(reply.dataset.status).toBe('200');
    expect(reply.textContent).toContain('"messageId": 41');
    const post = calls.find((c) => c.url === '/api/messages/send')!;
    expect(post.method).toBe('POST');
    expect(header(post, 'authorization')).toBe('Bearer conn-token-123');
    expect(header(post, 'idempotency-key')).toBe('pedido-1');
    expect(post.data).toEqual({ number: '+55 (11) 98765-4321', body: 'Olá {{name}}', closeTicket: true });

    fireEvent.click(screen.getByTestId('api-test-status'));
    const status = await screen.findByTestId('api-test-status-reply');
    expect(status.textContent).toContain('Status of message 41');
    expect(status.textContent).toContain('"status": "delivered"');
    const get = calls.find((c) => c.url === '/api/messages/41')!;
    expect(header(get, 'authorization')).toBe('Bearer conn-token-123');
  });

  it('shows a refusal in words and keeps the session: a wrong token is about the token, not the user', async () => {
    serve(() => ({ status: 401, data: { error: 'ERR_INVALID_API_TOKEN' } }));
    signIn({ profile: 'admin' });
    renderApp('/messages-api');
    await screen.findByTestId('api-test');
    type('api-test-token', 'old-token');
    type('api-test-number', '5511987654321');
    type('api-test-body', 'Oi');
    fireEvent.click(screen.getByTestId('api-test-send'));
    const reply = await screen.findByTestId('api-test-reply');
    expect(reply.dataset.status).toBe('401');
    expect(reply.textContent).toContain('This API token is not valid');
    expect(screen.queryByTestId('api-test-status')).toBeNull();
    expect(useAuthStore.getState().status).toBe('authenticated');
  });

  it('sends files as multipart medias with the number and caption', async () => {
    const calls = serve(() => ({ data: { ...SENT, messages: [{ id: 41, wid: '3EB0A', type: 'image' }, { id: 42, wid: '3EB0B', type: 'application' }] } }));
    signIn({ profile: 'admin' });
    renderApp('/messages-api');
    await screen.findByTestId('api-test');
    fireEvent.click(screen.getByTestId('api-test-tab-media'));
    await screen.findByTestId('api-test-form-media');
    type('api-test-token', 'conn-token');
    type('api-test-number', '5511987654321');
    fireEvent.click(screen.getByTestId('api-test-send'));
    expect(await screen.findByText('Choose at least one file')).toBeTruthy();

    const photo = new File([new Uint8Array([137, 80, 78, 71])], 'foto.png', { type: 'image/png' });
    const pdf = new File(['%PDF'], 'nota.pdf', { type: 'application/pdf' });
    fireEvent.change(screen.getByTestId('api-test-files'), { target: { files: [photo, pdf] } });
    expect(screen.getByTestId('api-test-file-names').textContent).toBe('foto.png, nota.pdf');
    type('api-test-body', 'Segue');
    fireEvent.click(screen.getByTestId('api-test-send'));
    expect((await screen.findByTestId('api-test-reply')).dataset.status).toBe('200');
    const post = calls.find((c) => c.url === '/api/messages/send')!;
    const form = post.data as FormData;
    expect(form.get('number')).toBe('5511987654321');
    expect(form.get('body')).toBe('Segue');
    expect(form.get('closeTicket')).toBe('false');
    expect((form.getAll('medias') as File[]).map((f) => f.name)).toEqual(['foto.png', 'nota.pdf']);
    expect(header(post, 'authorization')).toBe('Bearer conn-token');
  });

  it('without the external API in the plan: an error notice, then / a second later (spec 02 section 8)', async () => {
    const calls = serve(undefined, { useExternalApi: false });
    const toasts = collectToasts();
    signIn({ profile: 'admin' });
    renderApp('/messages-api');
    await waitFor(() => expect(toasts.map((t) => [t.intent, t.message])).toContainEqual(['error', 'This company is not allowed to access this page! Redirecting you.']));
    expect(screen.getByTestId('location').textContent).toBe('/messages-api');
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/'));
    expect(toasts.filter((t) => t.message.startsWith('This company is not allowed'))).toHaveLength(1);
    // The page never loaded its document.
    expect(calls.some((c) => c.url === '/api/openapi.json')).toBe(false);
  });
});
