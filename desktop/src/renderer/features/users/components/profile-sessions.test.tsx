import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeServer, renderWithProviders, signIn } from '../../../test/render';
import ProfileDialog from './profile-dialog';
import { deviceOf } from './profile-sessions';

const DESKTOP_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Atrium/1.0.0 Chrome/130.0 Electron/33.0.0 Safari/537.36';
const PHONE_UA = 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1';

describe('profile: sessions', () => {
  it('names the devices a person would recognise', () => {
    expect(deviceOf(DESKTOP_UA)).toEqual({ kind: 'desktop', browser: null, os: 'Linux' });
    expect(deviceOf(PHONE_UA)).toEqual({ kind: 'phone', browser: 'Safari', os: 'iOS' });
    expect(deviceOf('Mozilla/5.0 (Windows NT 10.0) Chrome/130.0 Safari/537.36 Edg/130.0')).toMatchObject({ kind: 'browser', browser: 'Edge', os: 'Windows' });
    expect(deviceOf(null)).toEqual({ kind: 'browser', browser: null, os: null });
  });

  it('lists where the user is signed in, this device first and not endable; ending another removes it', async () => {
    let sessions = [
      { id: 'a0000000-0000-4000-8000-000000000001', userAgent: DESKTOP_UA, ip: '10.0.0.2', createdAt: '2026-11-27T08:00:00Z', lastUsedAt: '2026-11-27T09:00:00Z', current: true },
      { id: 'a0000000-0000-4000-8000-000000000002', userAgent: PHONE_UA, ip: '10.0.0.3', createdAt: '2026-11-26T08:00:00Z', lastUsedAt: '2026-11-26T18:30:00Z', current: false },
    ];
    const calls = fakeServer((call) => {
      if (call.method === 'GET' && call.url === '/auth/sessions') return { data: { allowed: 2, sessions } };
      if (call.method === 'DELETE' && call.url.startsWith('/auth/sessions/')) {
        sessions = sessions.filter((s) => !call.url.endsWith(s.id));
        return { status: 204 };
      }
      return { data: [] };
    });
    signIn();
    renderWithProviders(<ProfileDialog open onOpenChange={() => undefined} />);
    const list = await screen.findByTestId('profile-sessions');
    expect(list.textContent).toContain('2 sessions per user at once');
    const current = screen.getByTestId(`profile-session-${sessions[0].id}`);
    expect(current.textContent).toContain('Atrium desktop app on Linux');
    expect(current.textContent).toContain('This device');
    expect(screen.queryByTestId(`profile-session-end-${sessions[0].id}`)).toBeNull();
    const phone = screen.getByTestId(`profile-session-${sessions[1].id}`);
    expect(phone.textContent).toContain('Safari on iOS');
    const end = screen.getByRole('button', { name: 'End: Safari on iOS' });
    fireEvent.click(end);
    await waitFor(() => expect(screen.queryByTestId('profile-session-a0000000-0000-4000-8000-000000000002')).toBeNull());
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.url)).toEqual(['/auth/sessions/a0000000-0000-4000-8000-000000000002']);
  });
});
