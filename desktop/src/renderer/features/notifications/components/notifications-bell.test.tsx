import { describe, expect, it } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import { fakeServer, renderWithProviders, signIn } from '../../../test/render';
import { NotificationsBell } from './notifications-bell';

describe('the notifications bell', () => {
  it("shows each unread ticket's last message with WhatsApp's formatting, not its markers", async () => {
    fakeServer((call) => {
      if (call.url === '/tickets') {
        return {
          data: {
            tickets: [
              {
                id: 4,
                uuid: 'uuid-4',
                status: 'pending',
                userId: null,
                queueId: null,
                unreadMessages: 2,
                lastMessage: '*[ 1 ]* - Segunda via\n_obrigado_',
                updatedAt: '2024-05-03T10:00:00.000Z',
                contact: { id: 1, name: 'Maria' },
              },
            ],
          },
        };
      }
      return { data: [] };
    });
    signIn();
    renderWithProviders(<NotificationsBell />);
    // The count shows once the unread tickets arrived; the bell opens its list.
    await screen.findByText('1');
    fireEvent.click(screen.getAllByRole('button', { name: 'Notifications' }).at(-1)!);
    const last = await screen.findByTestId('notification-last-4');
    expect(last.textContent).toBe('[ 1 ] - Segunda via obrigado');
    expect(last.querySelector('strong')?.textContent).toBe('[ 1 ]');
    expect(last.querySelector('em')?.textContent).toBe('obrigado');
  });
});
