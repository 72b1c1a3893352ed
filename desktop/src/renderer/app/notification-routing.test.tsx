import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../test/render';
import { NotificationRouting } from './notification-routing';

describe('notification clicks', () => {
  it('open the ticket of a desktop notification', async () => {
    let open: ((uuid: string) => void) | undefined;
    (globalThis as { desktop?: unknown }).desktop = {
      onOpenTicket: (callback: (uuid: string) => void) => {
        open = callback;
        return () => {
          open = undefined;
        };
      },
    };
    const view = renderWithProviders(<NotificationRouting />, '/contacts');
    await waitFor(() => expect(open).toBeTypeOf('function'));
    open?.('9b2d-uuid');
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/tickets/9b2d-uuid'));
    view.unmount();
    expect(open).toBeUndefined();
  });

  it("open the internal chat of a chat message's desktop notification", async () => {
    let open: ((uuid: string) => void) | undefined;
    (globalThis as { desktop?: unknown }).desktop = {
      onOpenTicket: () => () => undefined,
      onOpenChat: (callback: (uuid: string) => void) => {
        open = callback;
        return () => {
          open = undefined;
        };
      },
    };
    const view = renderWithProviders(<NotificationRouting />, '/contacts');
    await waitFor(() => expect(open).toBeTypeOf('function'));
    open?.('4c1e-uuid');
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/chats/4c1e-uuid'));
    view.unmount();
    expect(open).toBeUndefined();
    delete (globalThis as { desktop?: unknown }).desktop;
  });
});
