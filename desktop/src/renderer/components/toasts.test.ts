import { describe, expect, it } from 'vitest';
import { collectToasts } from '../test/render';
import { subscribeToasts, toast, type ToastMessage } from './toasts';

describe('toasts', () => {
  it('keeps a toast raised before the host listens and gives it to the host once', () => {
    toast.error('Before the host');
    const first: ToastMessage[] = [];
    const second: ToastMessage[] = [];
    const stopFirst = subscribeToasts((t) => first.push(t));
    const stopSecond = subscribeToasts((t) => second.push(t));
    toast.success('After');
    stopFirst();
    stopSecond();
    expect(first.map((t) => [t.intent, t.message])).toEqual([
      ['error', 'Before the host'],
      ['success', 'After'],
    ]);
    expect(second.map((t) => t.message)).toEqual(['After']);
    // Raised with no host, after this test's screen is gone: the next test must not see it.
    toast.error('Left behind');
  });

  it('starts each test without the toasts an earlier test left waiting', () => {
    const toasts = collectToasts();
    toast.info('Mine');
    expect(toasts.map((t) => t.message)).toEqual(['Mine']);
  });
});
