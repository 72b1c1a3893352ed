import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, screen } from '@testing-library/react';
import { realtime } from '../../../api/socket';
import { usePreferences } from '../../../stores/preferences-store';
import { renderApp, signIn } from '../../../test/render';
import { startSocketServer, until, type TestSocketServer } from '../../../test/socket-server';
import { makeMessage, makeTicket, ME, ticketsServer } from '../test/fake-tickets-server';

/** The chime's loudest gain, per play: the sound is made with Web Audio, stubbed here. */
const plays: number[][] = [];
class FakeAudioContext {
  state = 'running';
  currentTime = 0;
  destination = {};
  resume = () => Promise.resolve();
  createGain() {
    const peaks: number[] = [];
    plays.push(peaks);
    return { connect: () => undefined, gain: { setValueAtTime: () => undefined, exponentialRampToValueAtTime: (v: number) => peaks.push(v) } };
  }
  createOscillator() {
    return { type: 'sine', frequency: { setValueAtTime: () => undefined }, connect: () => undefined, start: () => undefined, stop: () => undefined };
  }
}

let io: TestSocketServer;
beforeAll(async () => {
  io = await startSocketServer();
});
afterAll(async () => {
  await io.close();
});
beforeEach(() => {
  plays.length = 0;
  vi.stubGlobal('AudioContext', FakeAudioContext);
});
afterEach(() => {
  io.reset();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const setup = async (path: string) => {
  vi.spyOn(document, 'hasFocus').mockReturnValue(true);
  ticketsServer({ tickets: [makeTicket(1), makeTicket(2)], messages: [makeMessage(1, 1), makeMessage(2, 2)] });
  signIn({ id: ME.id });
  realtime.connect({ url: io.url, token: 'token-1', companyId: 3, userId: ME.id, renewToken: async () => null });
  renderApp(path);
  await screen.findByTestId('ticket-item-2');
  await until(() => realtime.connected && io.heard.some((h) => h.event === 'joinNotification'));
};

const customerWrites = (ticketId: number) => {
  const ticket = { ...makeTicket(ticketId), unreadMessages: 1 };
  io.sockets[0].emit('company-3-appMessage', { action: 'create', message: makeMessage(50 + ticketId, ticketId), ticket, contact: ticket.contact });
};
const pause = (ms: number) => act(() => new Promise((resolve) => setTimeout(resolve, ms)));

describe('notification sound on new customer messages', () => {
  it('plays at the stored volume', async () => {
    usePreferences.setState({ volume: 1 });
    await setup('/tickets');
    customerWrites(2);
    await until(() => plays.length === 1);
    const full = Math.max(...plays[0]);
    usePreferences.getState().set('volume', 0.3);
    customerWrites(2);
    await until(() => plays.length === 2);
    expect(Math.max(...plays[1])).toBeCloseTo(full * 0.3, 5);
  });

  it('is silent at volume 0', async () => {
    usePreferences.setState({ volume: 0 });
    await setup('/tickets');
    customerWrites(2);
    await pause(200);
    expect(plays).toHaveLength(0);
  });

  it('stays quiet for the conversation the agent is looking at', async () => {
    usePreferences.setState({ volume: 1 });
    await setup('/tickets/uuid-1');
    customerWrites(1);
    await screen.findByTestId('message-51');
    await pause(150);
    expect(plays).toHaveLength(0);
    customerWrites(2);
    await until(() => plays.length === 1);
  });
});
