import { observeElementRect, type Virtualizer } from '@tanstack/react-virtual';

/**
 * The virtualiser's element measurement, with a fallback size when the element has none (a test DOM
 * without layout), so the first rows still render.
 */
export const observeRectWithFallback =
  (fallback: { width: number; height: number }) =>
  <T extends Element>(instance: Virtualizer<T, Element>, cb: (rect: { width: number; height: number }) => void) =>
    observeElementRect(instance, (rect) => cb(rect.height > 0 ? rect : fallback));
