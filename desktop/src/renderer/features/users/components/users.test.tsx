import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeServer, planReply, renderWithProviders, signIn } from '../../../test/render';
import { UserModal } from './user-modal';

const server = () =>
  fakeServer((call) => {
    if (call.url.startsWith('/companies/listPlan/')) return planReply();
    return { data: [] };
  });

describe('user modal', () => {
  it('shows profile, queues, connection and ticket visibility to admins', async () => {
    server();
    signIn({ profile: 'admin' });
    renderWithProviders(<UserModal onClose={() => undefined} />);
    await screen.findByTestId('user-modal');
    for (const id of ['user-profile', 'user-queues', 'user-connection', 'user-allticket']) expect(screen.getByTestId(id)).toBeTruthy();
  });

  it('hides them from agents', async () => {
    server();
    signIn({ profile: 'user' });
    renderWithProviders(
      <UserModal user={{ id: 7, name: 'Ana', email: 'a@x.com', profile: 'user', allTicket: 'desabled', whatsappId: null, queues: [] }} onClose={() => undefined} />,
    );
    await screen.findByTestId('user-modal');
    expect(screen.getByTestId('user-name')).toBeTruthy();
    expect(screen.getByTestId('user-password')).toBeTruthy();
    for (const id of ['user-profile', 'user-queues', 'user-connection', 'user-allticket']) expect(screen.queryByTestId(id)).toBeNull();
  });
});
