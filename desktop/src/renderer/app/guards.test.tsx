import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useAuthStore } from '../stores/auth-store';
import { usePreferences } from '../stores/preferences-store';
import { collectToasts, fakeServer, planReply, renderApp, signIn } from '../test/render';
import { MENU } from './menu';
import { PRIVATE_ROUTES } from './routes';

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

  it('keeps the dashboard for admins: an agent at / goes to /tickets, without a notice (it is where they land)', async () => {
    layoutServer();
    const toasts = collectToasts();
    signIn({ profile: 'user' });
    renderApp('/');
    await heading('Tickets');
    expect(location()).toBe('/tickets');
    expect(toasts.some((t) => t.message === 'Access not allowed')).toBe(false);
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

describe('admin routes', () => {
  const ADMIN_PATHS = ['/users', '/settings', '/queues', '/connections', '/financeiro', '/files', '/prompts', '/queue-integration', '/messages-api'];

  it('send an agent who types their address to /tickets with the access-not-allowed notice, without loading them', async () => {
    const calls = layoutServer();
    signIn({ profile: 'user' });
    for (const path of ADMIN_PATHS) {
      const toasts = collectToasts();
      const view = renderApp(path);
      await heading('Tickets');
      expect(location()).toBe('/tickets');
      expect(toasts.filter((t) => t.message === 'Access not allowed')).toHaveLength(1);
      view.unmount();
    }
    // None of their data was asked for (the users list, the settings, the invoices...).
    expect(calls.map((c) => c.url).filter((url) => /^\/(users|settings|invoices|files|prompt|queueIntegration)\b/.test(url))).toEqual([]);
  });

  it('send an agent to /tickets from the cshow admin routes too', async () => {
    layoutServer();
    signIn({ profile: 'user' });
    usePreferences.setState({ cshow: true });
    for (const path of ['/campaigns', '/contact-lists', '/contact-lists/4/contacts', '/campaign/9/report', '/campaigns-config']) {
      const view = renderApp(path);
      await heading('Tickets');
      expect(location()).toBe('/tickets');
      view.unmount();
    }
  });

  it('open for admins', async () => {
    layoutServer();
    signIn({ profile: 'admin' });
    renderApp('/users');
    await heading('Users');
    expect(location()).toBe('/users');
  });

  it("cover every entry of the menu's admin section (announcements checks the super flag itself)", () => {
    const adminPaths = MENU.filter((section) => section.adminOnly)
      .flatMap((section) => section.items.flatMap((item) => [item, ...(item.children ?? [])]))
      .flatMap((item) => (item.to ? [item.to] : []))
      .filter((to) => to !== '/announcements');
    const unguarded = adminPaths.filter((to) => !PRIVATE_ROUTES.find((route) => route.path === to)?.adminOnly);
    expect(adminPaths.length).toBeGreaterThan(8);
    expect(unguarded).toEqual([]);
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
    ['/flowbuilder/2', 'Draw your flow'],
    ['/flowbuilder', 'Conversation flows'],
  ] as const;
  // The canvas needs a flow: without an id it is the flows list.
  const landingOf = (path: string) => (path === '/flowbuilder' ? '/flowbuilders' : path);

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
      expect(location()).toBe(landingOf(path));
      view.unmount();
    }
  });
});
