import { afterEach, describe, expect, it, vi } from 'vitest';
import { setUnreadPart } from './notifications';

afterEach(() => {
  delete (globalThis as { desktop?: unknown }).desktop;
});

describe('the unread badge', () => {
  it("shows the sum of every feature's part (tickets and chats), updating only on a change", async () => {
    const setUnreadCount = vi.fn(async (_count: number) => undefined);
    (globalThis as { desktop?: unknown }).desktop = { setUnreadCount };
    await setUnreadPart('tickets', 2);
    await setUnreadPart('chats', 3);
    await setUnreadPart('chats', 3);
    await setUnreadPart('tickets', 0);
    expect(setUnreadCount.mock.calls.map(([n]) => n)).toEqual([2, 5, 3]);
    await setUnreadPart('chats', 0);
    expect(setUnreadCount).toHaveBeenLastCalledWith(0);
  });

  it('goes to the tab title in a browser', async () => {
    await setUnreadPart('chats', 4);
    expect(document.title).toMatch(/^\(4\) /);
    await setUnreadPart('chats', 0);
    expect(document.title).not.toMatch(/^\(/);
  });
});
