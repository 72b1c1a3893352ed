import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { useAuthStore } from '../../stores/auth-store';
import { usePreferences } from '../../stores/preferences-store';
import { defaultDrawerOpen, useUiStore } from '../../stores/ui-store';
import { fakeServer, planReply, renderApp, signIn } from '../../test/render';
import { drawerTypeFor } from './main-layout';

const serve = () =>
  fakeServer(({ url, method }) => {
    if (url.startsWith('/companies/listPlan/')) return planReply();
    if (url.startsWith('/whatsapp')) return { data: [] };
    if (url.startsWith('/users/set-language/')) return { data: { ok: true } };
    if (method === 'DELETE' && url === '/auth/logout') return { data: { message: 'OK' } };
    return undefined;
  });

const originalMatchMedia = window.matchMedia;
const setSystemDark = (dark: boolean) => {
  window.matchMedia = ((query: string) => ({
    matches: dark && query.includes('dark'),
    media: query,
    onchange: null,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    addListener: () => undefined,
    removeListener: () => undefined,
    dispatchEvent: () => false,
  })) as typeof window.matchMedia;
};
afterEach(() => {
  window.matchMedia = originalMatchMedia;
});

describe('top bar', () => {
  it('greets an admin with the company and its due date', async () => {
    serve();
    signIn({ name: 'Ana Admin', profile: 'admin' });
    renderApp('/tickets');
    const greeting = await screen.findByTestId('greeting');
    expect(greeting.textContent).toContain('Hello Ana Admin, welcome to Acme!');
    expect(within(greeting).getByTestId('active-until').textContent).toBe('(Active until 31/12/2099)');
  });

  it('greets an agent without the due date', async () => {
    serve();
    signIn({ name: 'Bo Agent', profile: 'user' });
    renderApp('/tickets');
    const greeting = await screen.findByTestId('greeting');
    expect(greeting.textContent).toBe('Hello Bo Agent, welcome to Acme!');
    expect(within(greeting).queryByTestId('active-until')).toBeNull();
  });

  it('follows the system theme until toggled, then remembers the choice', async () => {
    serve();
    setSystemDark(true);
    signIn();
    renderApp('/tickets');
    await screen.findByTestId('greeting');
    await waitFor(() => expect(document.documentElement.dataset.theme).toBe('dark'));
    expect(localStorage.getItem('preferredTheme')).toBeNull();
    fireEvent.click(screen.getByTestId('theme-toggle'));
    await waitFor(() => expect(document.documentElement.dataset.theme).toBe('light'));
    expect(localStorage.getItem('preferredTheme')).toBe('light');
    expect(usePreferences.getState().theme).toBe('light');
  });

  it('sets the volume from 0 to 1 in steps of 0.1 and stores it', async () => {
    serve();
    signIn();
    renderApp('/tickets');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Volume' }));
    const slider = (await screen.findByRole('slider', { name: 'Volume' })) as HTMLInputElement;
    expect([slider.min, slider.max, slider.step]).toEqual(['0', '1', '0.1']);
    expect(slider.value).toBe('1');
    fireEvent.change(slider, { target: { value: '0.3' } });
    expect(usePreferences.getState().volume).toBe(0.3);
    expect(localStorage.getItem('volume')).toBe('0.3');
  });

  it('switches the language, stores it and tells the server', async () => {
    const calls = serve();
    signIn();
    renderApp('/tickets');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Language' }));
    await user.click(await screen.findByRole('menuitemradio', { name: 'Português' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Atendimentos' })).toBeTruthy();
    expect(localStorage.getItem('language')).toBe('pt');
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.url === '/users/set-language/pt')).toBe(true));
  });

  it('logs out from the user menu', async () => {
    const calls = serve();
    signIn();
    renderApp('/tickets');
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('user-menu'));
    await user.click(await screen.findByTestId('logout'));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/login'));
    expect(calls.some((c) => c.method === 'DELETE' && c.url === '/auth/logout')).toBe(true);
    expect(useAuthStore.getState().status).toBe('guest');
  });

  it('opens the profile from the user menu', async () => {
    serve();
    signIn({ name: 'Ana Admin', email: 'ana@example.com' });
    renderApp('/tickets');
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('user-menu'));
    await user.click(await screen.findByRole('menuitem', { name: 'Profile' }));
    const dialog = await screen.findByRole('dialog');
    // The profile is the user's own to edit (name, email, password, language).
    expect((await within(dialog).findByDisplayValue('ana@example.com') as HTMLInputElement).readOnly).toBe(false);
    expect(within(dialog).getByDisplayValue('Ana Admin')).toBeTruthy();
  });
});

describe('drawer', () => {
  it('opens by default above 1200 px, inline from 600 px, overlay below', () => {
    expect(defaultDrawerOpen(1201)).toBe(true);
    expect(defaultDrawerOpen(1200)).toBe(false);
    expect(drawerTypeFor(600)).toBe('inline');
    expect(drawerTypeFor(599)).toBe('overlay');
  });

  it('collapses to an icon rail and opens again', async () => {
    serve();
    signIn();
    renderApp('/tickets');
    await screen.findByTestId('side-menu');
    fireEvent.click(screen.getByRole('button', { name: 'Toggle menu' }));
    expect(await screen.findByTestId('menu-rail')).toBeTruthy();
    expect(screen.queryByTestId('side-menu')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Toggle menu' }));
    expect(await screen.findByTestId('side-menu')).toBeTruthy();
  });

  it('names the menu and its icon rail in the language shown, switched at run time', async () => {
    serve();
    signIn();
    renderApp('/tickets');
    const user = userEvent.setup();
    expect((await screen.findByTestId('side-menu')).getAttribute('aria-label')).toBe('Main menu');
    await user.click(await screen.findByRole('button', { name: 'Language' }));
    await user.click(await screen.findByRole('menuitemradio', { name: 'Español' }));
    await waitFor(() => expect(screen.getByTestId('side-menu').getAttribute('aria-label')).toBe('Menú principal'));
    await user.click(screen.getByRole('button', { name: 'Abrir o cerrar el menú' }));
    expect((await screen.findByRole('navigation', { name: 'Menú principal' })).dataset.testid).toBe('menu-rail');
    await user.click(await screen.findByRole('button', { name: 'Idioma' }));
    await user.click(await screen.findByRole('menuitemradio', { name: 'Português' }));
    expect(await screen.findByRole('navigation', { name: 'Menu principal' })).toBeTruthy();
  });

  it('is a closed overlay on a narrow window, opened by the menu button, closed by navigating', async () => {
    serve();
    signIn();
    const width = window.innerWidth;
    act(() => {
      (window as { innerWidth: number }).innerWidth = 480;
      // A narrow window starts with the overlay closed, whatever an earlier test left in the store.
      useUiStore.setState({ drawerOpen: false });
    });
    try {
      renderApp('/tickets');
      await screen.findByRole('button', { name: 'Toggle menu' });
      expect(screen.queryByTestId('greeting')).toBeNull();
      await waitFor(() => expect(useUiStore.getState().drawerOpen).toBe(false));
      expect(screen.queryByTestId('menu-rail')).toBeNull();
      fireEvent.click(screen.getByRole('button', { name: 'Toggle menu' }));
      const menu = await screen.findByTestId('side-menu');
      fireEvent.click(await within(menu).findByText('Contacts'));
      await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/contacts'));
      await waitFor(() => expect(useUiStore.getState().drawerOpen).toBe(false));
    } finally {
      (window as { innerWidth: number }).innerWidth = width;
    }
  });
});
