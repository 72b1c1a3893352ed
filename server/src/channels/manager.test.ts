import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.js';
import { ChannelManager } from './manager.js';
import type { AuthStore, ChannelEvents, ChannelProvider, ChannelSession } from './types.js';

/** A provider whose sessions take a while to start and record whether they are running. */
const slowProvider = () => {
  const sessions: { id: number; running: boolean }[] = [];
  const provider: ChannelProvider = {
    name: 'slow',
    createSession: () => {
      const record = { id: sessions.length + 1, running: false };
      sessions.push(record);
      return {
        start: async () => {
          await new Promise((r) => setTimeout(r, 20));
          record.running = true;
        },
        stop: async () => {
          record.running = false;
        },
        logout: async () => {
          record.running = false;
        },
      } as unknown as ChannelSession;
    },
  };
  return { provider, sessions };
};

const manager = (provider: ChannelProvider, cleared: number[] = []) =>
  new ChannelManager(
    { slow: provider },
    {
      events: () => ({}) as ChannelEvents,
      auth: (c) => ({ clear: async () => void cleared.push(c.id) }) as unknown as AuthStore,
      logger: pino({ level: 'silent' }),
    },
  );

const connection = { id: 7, companyId: 1, provider: 'slow' };

describe('ChannelManager', () => {
  it('two starts of one connection at once leave one running session, the one it hands out', async () => {
    const { provider, sessions } = slowProvider();
    const channels = manager(provider);
    await Promise.all([channels.start(connection), channels.start(connection), channels.restartFresh(connection)]);
    expect(sessions.filter((s) => s.running)).toHaveLength(1);
    expect(sessions.at(-1)!.running).toBe(true);
  });

  it('a stop asked during a start wins: nothing keeps running', async () => {
    const { provider, sessions } = slowProvider();
    const channels = manager(provider);
    const started = channels.start(connection);
    await channels.stop(connection.id);
    await started;
    expect(sessions.filter((s) => s.running)).toHaveLength(0);
    expect(channels.find(connection.id)).toBeUndefined();
  });

  it('a failed start does not block the next change', async () => {
    const channels = manager({ name: 'slow', createSession: () => ({ start: async () => { throw new Error('no network'); }, stop: async () => {} }) as unknown as ChannelSession });
    await expect(channels.start(connection)).rejects.toThrow('no network');
    await expect(channels.stop(connection.id)).resolves.toBeUndefined();
  });

  it('stops only the sessions of the company asked for', async () => {
    const { provider, sessions } = slowProvider();
    const channels = manager(provider);
    await channels.start(connection);
    await channels.start({ id: 8, companyId: 2, provider: 'slow' });
    await channels.stopCompany(1);
    expect(channels.find(7)).toBeUndefined();
    expect(channels.find(8)).toBeDefined();
    expect(sessions.map((s) => s.running)).toEqual([false, true]);
  });

  it('reports a failure inside the server during a send as an internal error, never as the channel refusing it', async () => {
    const failing = {
      start: async () => {},
      stop: async () => {},
      sendText: async () => {
        throw new Error('invalid byte sequence for encoding "UTF8": 0x00');
      },
      deleteMessage: async () => {
        throw new AppError('ERR_DELETE_WAPP_MSG');
      },
    } as unknown as ChannelSession;
    const channels = manager({ name: 'slow', createSession: () => failing });
    await channels.start(connection);
    const session = channels.get(connection.id);
    await expect(session.sendText({ to: { number: '5511999990000', lid: null }, text: 'hi' })).rejects.toMatchObject({
      code: 'ERR_INTERNAL_SERVER_ERROR',
      status: 500,
    });
    // The provider's own verdict on its network stands.
    await expect(session.deleteMessage({ number: '5511999990000', lid: null }, 'X', true)).rejects.toMatchObject({ code: 'ERR_DELETE_WAPP_MSG' });
  });
});
