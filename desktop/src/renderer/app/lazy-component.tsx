import { lazy, type ComponentType } from 'react';

/** A component fetched on first use, and a way to start fetching it before it is rendered. */
export type LazyComponent = ComponentType & { preload: () => Promise<unknown> };

/**
 * A component fetched on first use, with what it needs first (its strings), and rendered directly once
 * here. Not React.lazy alone: a lazy component suspends on its first render even when its chunk has
 * already arrived, so a first screen commits the spinner and then the page in a later render (React may
 * also hold a boundary's reveal back after its fallback showed): on a cold start the login form came
 * ~350 ms after the spinner on a busy machine.
 */
export const lazyComponent = (load: () => Promise<{ default: ComponentType }>, alongside?: () => Promise<unknown>): LazyComponent => {
  let loaded: ComponentType | undefined;
  let loading: Promise<{ default: ComponentType }> | undefined;
  const preload = () =>
    (loading ??= Promise.all([load(), alongside?.()]).then(([module]) => {
      loaded = module.default;
      return module;
    }));
  // Until the chunk is here: suspends to the nearest Suspense (a spinner), as before.
  const Lazy = lazy(preload);
  const Component = () => {
    const Loaded = loaded;
    return Loaded ? <Loaded /> : <Lazy />;
  };
  return Object.assign(Component, { preload });
};
