import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { i18n } from '../i18n';
import { usePreferences } from '../stores/preferences-store';
import { renderWithProviders } from '../test/render';
import { LazyLanguageMenu } from './language-menu-lazy';

describe('the public pages\' language menu', () => {
  it('stands in with a button named as the menu\'s, and opens the menu on the first press of a key', async () => {
    const user = userEvent.setup();
    renderWithProviders(<LazyLanguageMenu showLabel />);
    const button = screen.getByRole('button', { name: 'English (Language)' });
    expect(button.getAttribute('aria-haspopup')).toBe('menu');
    expect(screen.queryByRole('menu')).toBeNull();

    await user.tab();
    expect(document.activeElement).toBe(button);
    await user.keyboard('{Enter}');
    // Mounted open: the first choice has the focus, as when the menu is opened by its own button.
    const first = await screen.findByRole('menuitemradio', { name: 'Português' });
    await waitFor(() => expect(document.activeElement).toBe(first));
    expect(screen.getByRole('menuitemradio', { name: 'English' }).getAttribute('aria-checked')).toBe('true');

    // Closing gives the focus back to the (now real) button.
    await user.keyboard('{Escape}');
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'English (Language)' })));
    expect(screen.queryByRole('menu')).toBeNull();
  });

  it('switches the language from the first click', async () => {
    const user = userEvent.setup();
    renderWithProviders(<LazyLanguageMenu showLabel />);
    await user.click(screen.getByRole('button', { name: 'English (Language)' }));
    await user.click(await screen.findByRole('menuitemradio', { name: 'Español' }));
    await screen.findByRole('button', { name: 'Español (Idioma)' });
    expect(usePreferences.getState().language).toBe('es');
    expect(i18n.language).toBe('es');
  });
});
