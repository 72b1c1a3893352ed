import { useCallback, useEffect, useRef, useSyncExternalStore } from 'react';
import { toastError } from './errors';
import { onSessionEnd } from './session';

/**
 * Server data lives here, not in zustand: a small keyed cache with request de-duplication, used through
 * `useQuery` / `usePagedQuery`. Realtime handlers patch it with `queryClient.setData`, mutations call
 * `queryClient.invalidate(prefix)`. Keys are arrays whose first item names the resource: ['users'],
 * ['tickets', { status: 'open' }].
 */
export type QueryKey = readonly unknown[];

export type QueryStatus = 'idle' | 'loading' | 'success' | 'error';

export interface QueryState<T> {
  data: T | undefined;
  error: unknown;
  status: QueryStatus;
  /** A request is out (the first one or a refetch). */
  fetching: boolean;
  updatedAt: number;
}

interface Entry {
  key: QueryKey;
  state: QueryState<unknown>;
  listeners: Set<() => void>;
  fetcher?: () => Promise<unknown>;
  silent?: boolean;
  promise?: Promise<unknown>;
  stale: boolean;
}

const INITIAL: QueryState<never> = { data: undefined, error: undefined, status: 'idle', fetching: false, updatedAt: 0 };

export const hashKey = (key: QueryKey): string => JSON.stringify(key);

const startsWith = (key: QueryKey, prefix: QueryKey): boolean =>
  prefix.length <= key.length && prefix.every((part, i) => hashKey([part]) === hashKey([key[i]]));

export class QueryClient {
  private entries = new Map<string, Entry>();
  // Answers to requests made before a reset (logout) are dropped.
  private generation = 0;

  private entry(key: QueryKey): Entry {
    const hash = hashKey(key);
    let found = this.entries.get(hash);
    if (!found) {
      found = { key, state: INITIAL, listeners: new Set(), stale: true };
      this.entries.set(hash, found);
    }
    return found;
  }

  private update(entry: Entry, patch: Partial<QueryState<unknown>>): void {
    entry.state = { ...entry.state, ...patch };
    entry.listeners.forEach((listener) => listener());
  }

  getState<T>(key: QueryKey): QueryState<T> {
    return (this.entries.get(hashKey(key))?.state ?? INITIAL) as QueryState<T>;
  }

  getData<T>(key: QueryKey): T | undefined {
    return this.getState<T>(key).data;
  }

  subscribe(key: QueryKey, listener: () => void): () => void {
    const entry = this.entry(key);
    entry.listeners.add(listener);
    return () => {
      entry.listeners.delete(listener);
    };
  }

  /** Remembers how to load `key`, so an invalidation can reload it. */
  register(key: QueryKey, fetcher: () => Promise<unknown>, silent = false): void {
    const entry = this.entry(key);
    entry.fetcher = fetcher;
    entry.silent = silent;
  }

  isStale(key: QueryKey, staleTime: number): boolean {
    const entry = this.entry(key);
    return entry.stale || entry.state.status === 'idle' || Date.now() - entry.state.updatedAt > staleTime;
  }

  /** Loads `key` (sharing a request already out). Failures are toasted unless the query is silent. */
  fetch<T>(key: QueryKey, fetcher?: () => Promise<T>): Promise<T> {
    const entry = this.entry(key);
    if (entry.promise) return entry.promise as Promise<T>;
    const run = (fetcher ?? entry.fetcher) as (() => Promise<T>) | undefined;
    if (!run) return Promise.reject(new Error(`no fetcher for ${hashKey(key)}`));
    const generation = this.generation;
    this.update(entry, { fetching: true, status: entry.state.data === undefined ? 'loading' : entry.state.status });
    const promise = run().then(
      (data) => {
        if (generation === this.generation) {
          entry.stale = false;
          this.update(entry, { data, error: undefined, status: 'success', fetching: false, updatedAt: Date.now() });
        }
        return data;
      },
      (error: unknown) => {
        if (generation === this.generation) {
          this.update(entry, { error, status: 'error', fetching: false, updatedAt: Date.now() });
          if (!entry.silent) toastError(error);
        }
        throw error;
      },
    );
    entry.promise = promise;
    void promise.catch(() => undefined).finally(() => {
      if (entry.promise === promise) entry.promise = undefined;
    });
    return promise;
  }

  /** Replaces (or patches with a function) the cached data of `key`; used by realtime handlers. */
  setData<T>(key: QueryKey, updater: T | undefined | ((old: T | undefined) => T | undefined)): void {
    const entry = this.entry(key);
    const data =
      typeof updater === 'function' ? (updater as (old: T | undefined) => T | undefined)(entry.state.data as T | undefined) : updater;
    this.update(entry, { data, status: data === undefined ? entry.state.status : 'success', updatedAt: Date.now() });
  }

  /** Patches every cached key under `prefix` (e.g. all ticket lists when one ticket changes). */
  updateAll<T>(prefix: QueryKey, updater: (old: T | undefined, key: QueryKey) => T | undefined): void {
    for (const entry of this.entries.values()) {
      if (startsWith(entry.key, prefix) && entry.state.data !== undefined) {
        this.setData<T>(entry.key, (old) => updater(old, entry.key));
      }
    }
  }

  /** Marks keys under `prefix` (all keys when omitted) stale and reloads those on screen. */
  invalidate(prefix: QueryKey = []): void {
    for (const entry of this.entries.values()) {
      if (!startsWith(entry.key, prefix)) continue;
      entry.stale = true;
      if (entry.listeners.size > 0 && entry.fetcher) void this.fetch(entry.key).catch(() => undefined);
    }
  }

  /** Forgets everything (logout). */
  clear(): void {
    this.generation += 1;
    for (const entry of this.entries.values()) {
      entry.promise = undefined;
      entry.stale = true;
      this.update(entry, INITIAL);
    }
  }
}

export const queryClient = new QueryClient();
onSessionEnd(() => queryClient.clear());

export interface QueryOptions {
  /** False: do not load (yet). */
  enabled?: boolean;
  /** How long (ms) loaded data counts as fresh when another component asks for it. Default 0. */
  staleTime?: number;
  /** True: failures are not toasted (the caller shows them, or they do not matter). */
  silent?: boolean;
}

export interface QueryResult<T> {
  data: T | undefined;
  error: unknown;
  status: QueryStatus;
  /** Nothing to show yet. */
  isLoading: boolean;
  isFetching: boolean;
  refetch: () => Promise<T | undefined>;
  setData: (updater: T | undefined | ((old: T | undefined) => T | undefined)) => void;
}

/** Loads server data for a component, shared by every component that asks for the same key. */
export function useQuery<T>(key: QueryKey, fetcher: () => Promise<T>, options: QueryOptions = {}): QueryResult<T> {
  const { enabled = true, staleTime = 0, silent = false } = options;
  const hash = hashKey(key);
  const keyRef = useRef(key);
  keyRef.current = key;
  const fetcherRef = useRef(fetcher);
  fetcherRef.current = fetcher;

  const subscribe = useCallback((listener: () => void) => queryClient.subscribe(keyRef.current, listener), [hash]);
  const state = useSyncExternalStore(subscribe, () => queryClient.getState<T>(keyRef.current));

  useEffect(() => {
    if (!enabled) return;
    const current = keyRef.current;
    queryClient.register(current, () => fetcherRef.current(), silent);
    if (queryClient.isStale(current, staleTime)) void queryClient.fetch(current).catch(() => undefined);
  }, [hash, enabled, staleTime, silent]);

  const refetch = useCallback(
    () => queryClient.fetch<T>(keyRef.current, () => fetcherRef.current()).catch(() => undefined),
    [hash],
  );
  const setData = useCallback(
    (updater: T | undefined | ((old: T | undefined) => T | undefined)) => queryClient.setData<T>(keyRef.current, updater),
    [hash],
  );

  return {
    data: state.data,
    error: state.error,
    status: state.status,
    isLoading: enabled && state.data === undefined && state.status !== 'error',
    isFetching: state.fetching,
    refetch,
    setData,
  };
}

/** One page of a list endpoint, as the spec's lists answer ({ records | tickets | ..., hasMore }). */
export interface Page<T> {
  items: T[];
  hasMore: boolean;
}

export interface PagedData<T> {
  items: T[];
  hasMore: boolean;
  pageNumber: number;
}

export interface PagedResult<T> extends QueryResult<PagedData<T>> {
  items: T[];
  hasMore: boolean;
  /** Loads the next page and appends it (infinite scroll). */
  loadMore: () => Promise<void>;
}

/**
 * A paged list (search + infinite scroll): page 1 is the cached query; `loadMore` appends pages. Put the
 * filters in the key, so a new filter starts again at page 1.
 */
export function usePagedQuery<T>(
  key: QueryKey,
  fetchPage: (pageNumber: number) => Promise<Page<T>>,
  options: QueryOptions = {},
): PagedResult<T> {
  const fetchRef = useRef(fetchPage);
  fetchRef.current = fetchPage;
  const result = useQuery<PagedData<T>>(
    key,
    async () => ({ ...(await fetchRef.current(1)), pageNumber: 1 }),
    options,
  );
  const loading = useRef(false);
  const { data, setData } = result;

  const loadMore = useCallback(async () => {
    if (loading.current || !data?.hasMore) return;
    loading.current = true;
    try {
      const next = data.pageNumber + 1;
      const page = await fetchRef.current(next);
      setData((old) =>
        old ? { items: [...old.items, ...page.items], hasMore: page.hasMore, pageNumber: next } : old,
      );
    } catch (err) {
      if (!options.silent) toastError(err);
    } finally {
      loading.current = false;
    }
  }, [data, setData, options.silent]);

  return { ...result, items: data?.items ?? [], hasMore: data?.hasMore ?? false, loadMore };
}
