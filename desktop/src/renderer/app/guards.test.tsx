import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useAuthStore } from '../stores/auth-store';
import { usePreferences } from '../stores/preferences-store';
import { fakeServer, planReply, renderApp, signIn } from '../test/render';

const layoutServer = (flags: Record<string, boolean> = {}) =>
  fakeServer(({ url }) => {
    if (url.startsWith('/companies/listPlan/')) return planReply(flags);
    if (url.startsWith('/whatsapp')) return { data: [] };
    return undefined;
  });

const location = () => screen.getByTestId('location').textContent;
const heading = (name: string) => screen.findByRole('heading', { level: 1, name });

describe('route guards', () => {
  it('sends a guest from a private route to /login', async () => {
    renderApp('/tickets');
    expect(await screen.findByRole('button', { name: 'Log in' })).toBeTruthy();
    expect(location()).toBe('/login');
  });

  it('sends a guest from every private route, including /, to /login', async () => {
    for (const path of ['/', '/users', '/settings', '/chats/12', '/tickets/abc-uuid']) {
      const view = renderApp(path);
      await waitFor(() => expect(location()).toBe('/login'));
      view.unmount();
    }
  });

  it('waits (spinner, no redirect) while the session is being restored', async () => {
    useAuthStore.setState({ status: 'restoring' });
    renderApp('/users');
    expect(screen.getByRole('status')).toBeTruthy();
    expect(location()).toBe('/users');
  });

  it('sends a logged-in user from /login to /', async () => {
    layoutServer();
    signIn({ profile: 'admin' });
    renderApp('/login');
    await heading('Dashboard');
    expect(location()).toBe('/');
  });

  it('sends a logged-in user from /signup and /forgetpsw away too', async () => {
    layoutServer();
    signIn({ profile: 'admin' });
    for (const path of ['/signup', '/forgetpsw']) {
      const view = renderApp(path);
      await waitFor(() => expect(location()).toBe('/'));
      view.unmount();
    }
  });

  it('lands on /tickets right after a login on the login page', async () => {
    layoutServer();
    renderApp('/login');
    await screen.findByRole('button', { name: 'Log in' });
    signIn({ profile: 'admin' }, 'login');
    await heading('Tickets');
    expect(location()).toBe('/tickets');
  });

  it('keeps the dashboard for admins: an agent at / goes to /tickets', async () => {
    layoutServer();
    signIn({ profile: 'user' });
    renderApp('/');
    await heading('Tickets');
    expect(location()).toBe('/tickets');
  });

  it('renders the page of a private route with its parameters', async () => {
    layoutServer();
    signIn();
    renderApp('/tickets/5f0c2c4e-uuid');
    await heading('Tickets');
    expect(location()).toBe('/tickets/5f0c2c4e-uuid');
  });

  it('shows a page in the language chosen', async () => {
    layoutServer();
    signIn();
    usePreferences.setState({ language: 'pt' });
    const { i18n } = await import('../i18n');
    await i18n.changeLanguage('pt');
    renderApp('/contacts');
    await heading('Contatos');
  });
});

describe('cshow-gated routes', () => {
  const gated = [
    ['/campaigns', 'Campaigns'],
    ['/contact-lists', 'Contact lists'],
    ['/contact-lists/4/contacts', 'Contacts in the list'],
    ['/campaign/9/report', 'Campaign report'],
    ['/campaigns-config', 'Campaign settings'],
    ['/phrase-lists', 'Flow campaigns'],
    ['/flowbuilders', 'Conversation flows'],
    ['/flowbuilder/2', 'Flow builder'],
    ['/flowbuilder', 'Flow builder'],
  ] as const;

  it('do not exist without the stored cshow flag (the user lands on /)', async () => {
    layoutServer();
    signIn({ profile: 'admin' });
    for (const [path] of gated) {
      const view = renderApp(path);
      await heading('Dashboard');
      expect(location()).toBe('/');
      view.unmount();
    }
  });

  it('exist when the flag is stored', async () => {
    layoutServer();
    signIn({ profile: 'admin' });
    usePreferences.setState({ cshow: true });
    for (const [path, title] of gated) {
      const view = renderApp(path);
      await heading(title);
      expect(location()).toBe(path);
      view.unmount();
    }
  });
});
