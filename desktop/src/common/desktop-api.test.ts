import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  DESKTOP_API,
  DESKTOP_METHODS,
  EVENT_METHODS,
  INVOKE_METHODS,
  IPC_PREFIX,
  channelOf,
  isDesktopMethod,
  type DesktopApi,
  type EventMethod,
  type InvokeMethod,
} from './desktop-api.js';
import { LANGUAGES } from './settings.js';

describe('DesktopApi contract', () => {
  it('describes every method of the interface, and nothing else (checked by tsc)', () => {
    expectTypeOf<keyof typeof DESKTOP_API>().toEqualTypeOf<keyof DesktopApi>();
    expectTypeOf<InvokeMethod | EventMethod>().toEqualTypeOf<keyof DesktopApi>();
    expectTypeOf<EventMethod>().toEqualTypeOf<'onOpenTicket' | 'onOpenChat'>();
  });

  it('splits the methods into requests and events', () => {
    expect(new Set([...INVOKE_METHODS, ...EVENT_METHODS])).toEqual(new Set(DESKTOP_METHODS));
    expect(INVOKE_METHODS.filter((m) => (EVENT_METHODS as string[]).includes(m))).toEqual([]);
    expect(EVENT_METHODS).toEqual(['onOpenTicket', 'onOpenChat']);
    expect(INVOKE_METHODS).toContain('notify');
    expect(INVOKE_METHODS).toContain('setRefreshToken');
  });

  it('gives every method its own channel under the one prefix', () => {
    const channels = DESKTOP_METHODS.map(channelOf);
    expect(IPC_PREFIX).toBe('atrium:');
    for (const channel of channels) expect(channel.startsWith(IPC_PREFIX)).toBe(true);
    expect(new Set(channels).size).toBe(channels.length);
    expect(channelOf('getVersion')).toBe('atrium:getVersion');
  });

  it('knows its own method names only', () => {
    expect(isDesktopMethod('notify')).toBe(true);
    expect(isDesktopMethod('toString')).toBe(false);
    expect(isDesktopMethod('__proto__')).toBe(false);
    expect(isDesktopMethod('sendSync')).toBe(false);
  });
});

describe('languages', () => {
  it('match the shared package (resolved to shared/src by the vitest alias)', async () => {
    // A variable specifier keeps tsc from resolving it, so building main needs no built shared/.
    const specifier = '@atrium/shared';
    const shared = (await import(specifier)) as { LANGUAGES: readonly string[]; DEFAULT_LANGUAGE: string };
    expect([...LANGUAGES]).toEqual([...shared.LANGUAGES]);
  });
});
