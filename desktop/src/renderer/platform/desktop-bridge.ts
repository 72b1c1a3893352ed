import type { DesktopApi, EventMethod } from '../../common/desktop-api';

/**
 * The adapter over `window.desktop` (desktop/src/common/desktop-api.ts). Every method is looked up at
 * run time: a build that lacks one (an older desktop app, a test) makes the caller fall back to the
 * browser's way instead of failing, and a method that throws counts as missing.
 */
type Bridge = Partial<DesktopApi>;

const bridge = (): Bridge | undefined => {
  const value = (globalThis as { desktop?: unknown }).desktop;
  return value && typeof value === 'object' ? (value as Bridge) : undefined;
};

export const isDesktop = (): boolean => bridge() !== undefined;

/** Whether the desktop build offers `method`. */
export const hasDesktop = (method: keyof DesktopApi): boolean => typeof bridge()?.[method] === 'function';

type Method = keyof DesktopApi;
type Args<M extends Method> = Parameters<DesktopApi[M]>;
type Result<M extends Method> = Awaited<ReturnType<DesktopApi[M]>>;

/** Calls a desktop method if the build offers it; `undefined` when it does not or when it fails. */
export const callDesktop = async <M extends Method>(method: M, ...args: Args<M>): Promise<Result<M> | undefined> => {
  const target = bridge();
  const fn = target?.[method] as ((...a: unknown[]) => unknown) | undefined;
  if (typeof fn !== 'function') return undefined;
  try {
    return (await fn.apply(target, args)) as Result<M>;
  } catch {
    return undefined;
  }
};

/** Subscribes to a desktop event (onOpenTicket, onOpenChat); a no-op unsubscribe when the build lacks it. */
export const onDesktop = <M extends EventMethod>(method: M, callback: Parameters<DesktopApi[M]>[0]): (() => void) => {
  const target = bridge();
  const fn = target?.[method] as ((cb: typeof callback) => () => void) | undefined;
  if (typeof fn !== 'function') return () => undefined;
  try {
    return fn.call(target, callback);
  } catch {
    return () => undefined;
  }
};
