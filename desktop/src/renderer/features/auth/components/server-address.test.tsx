import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { getServerUrl } from '../../../api/client';
import { usePreferences } from '../../../stores/preferences-store';
import { renderApp } from '../../../test/render';

const installDesktop = (chosen: boolean) => {
  let server = chosen ? 'https://old.example.com' : 'http://localhost:8080';
  let isChosen = chosen;
  (globalThis as { desktop?: unknown }).desktop = {
    getServerUrl: async () => server,
    hasServerUrl: async () => isChosen,
    setServerUrl: async (url: string) => {
      const parsed = new URL(url);
      if (!/^https?:$/.test(parsed.protocol) || parsed.pathname !== '/') throw new Error('Invalid serverUrl');
      server = parsed.origin;
      isChosen = true;
      return server;
    },
  };
};

describe('server address (desktop)', () => {
  it('is not offered in the browser', async () => {
    renderApp('/login');
    await screen.findByRole('button', { name: 'Log in' });
    expect(screen.queryByRole('button', { name: 'Server' })).toBeNull();
  });

  it('asks on first run, refuses a bad address, and uses the chosen one for the API', async () => {
    installDesktop(false);
    renderApp('/login');
    const dialog = await screen.findByRole('dialog', { name: 'Server address' });
    const user = userEvent.setup();
    const input = within(dialog).getByRole('textbox');
    await user.type(input, 'ftp://nope');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Enter an http(s) address such as https://desk.example.com')).toBeTruthy();
    await user.clear(input);
    await user.type(input, 'https://desk.example.com/');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(getServerUrl()).toBe('https://desk.example.com');
    expect(usePreferences.getState().serverUrl).toBe('https://desk.example.com');
  });

  it('does not ask again once a server is chosen, but can be changed from the button', async () => {
    installDesktop(true);
    renderApp('/login');
    const button = await screen.findByRole('button', { name: 'Server' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('dialog')).toBeNull();
    await userEvent.setup().click(button);
    expect(await screen.findByRole('dialog', { name: 'Server address' })).toBeTruthy();
  });
});
