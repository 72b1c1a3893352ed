import { useCallback, useMemo } from 'react';
import {
  QueryCache,
  QueryClient,
  useInfiniteQuery,
  useQuery as useTanstackQuery,
  type InfiniteData,
  type QueryKey,
} from '@tanstack/react-query';
import { toastError } from './errors';
import { onSessionEnd } from './session';

/**
 * Server data lives in TanStack Query's cache, not in zustand. Keys are arrays whose first item names the
 * resource: ['users'], ['tickets', { status: 'open' }]; a prefix (['tickets']) addresses every key under it.
 *
 * - Components read with `useQuery(key, fetcher, options)` / `usePagedQuery(key, fetchPage, options)` below
 *   (thin wrappers over TanStack's `useQuery` / `useInfiniteQuery` bound to `queryClient`), or with
 *   TanStack's own hooks (the app is wrapped in a `QueryClientProvider` for this client).
 * - Mutations and realtime handlers change the cache through `queryClient`: `invalidateQueries({ queryKey })`
 *   reloads what is on screen under a prefix, `setQueryData(key, updater)` / `setQueriesData({ queryKey },
 *   updater)` patch entries in place, `updatePagedItems(prefix, updater)` patches the rows of paged lists.
 * - A failed load is toasted (the translated error) unless the query is `silent` (`meta: { silent: true }`).
 * - Nothing is kept forever: an entry nobody shows is dropped after `GC_TIME`; the session's end drops all.
 */
export type { QueryKey } from '@tanstack/react-query';

/** How long an entry that no component shows stays in memory. */
export const GC_TIME = 5 * 60_000;

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: { silent?: boolean };
  }
}

export const createQueryClient = (): QueryClient =>
  new QueryClient({
    queryCache: new QueryCache({
      onError: (error, query) => {
        if (!query.meta?.silent) toastError(error);
      },
    }),
    defaultOptions: {
      queries: {
        gcTime: GC_TIME,
        staleTime: 0,
        // A failure is shown at once (the toast) and the user retries; realtime events keep data fresh.
        retry: false,
        refetchOnWindowFocus: false,
        // Requests go out whatever the browser thinks of the network: a failure is toasted, never parked.
        networkMode: 'always',
      },
      mutations: { networkMode: 'always' },
    },
  });

export const queryClient = createQueryClient();

/**
 * Forgets everything (logout, 401): requests still out are cancelled so their answers are dropped, entries
 * on screen go back to "nothing loaded" (without reloading), the rest are removed.
 */
export const resetQueryCache = (client: QueryClient = queryClient): void => {
  for (const query of client.getQueryCache().getAll()) query.reset();
  client.removeQueries({ predicate: (query) => query.getObserversCount() === 0 });
  client.getMutationCache().clear();
};

onSessionEnd(() => resetQueryCache());

/** One page of a list endpoint, as the spec's lists answer ({ records | tickets | ..., hasMore }). */
export interface Page<T> {
  items: T[];
  hasMore: boolean;
}

/** What a paged list keeps in the cache (TanStack's infinite data: the pages and their numbers). */
export type PagedData<T> = InfiniteData<Page<T>, number>;

const isPaged = (data: unknown): data is PagedData<unknown> =>
  !!data && typeof data === 'object' && Array.isArray((data as { pages?: unknown }).pages);

/** Puts `items` back into pages of the sizes `pages` had (the last page takes what is left over). */
const resplit = <T>(pages: Page<T>[], items: T[]): Page<T>[] => {
  let at = 0;
  return pages.map((page, index) => {
    const take = index === pages.length - 1 ? items.length - at : Math.min(page.items.length, items.length - at);
    const next = { ...page, items: items.slice(at, at + take) };
    at += take;
    return next;
  });
};

/**
 * Patches the rows of every paged list cached under `prefix` (e.g. a realtime `user` event reaching every
 * search of the users page): `updater` gets all loaded rows in order and returns the new rows.
 */
export const updatePagedItems = <T>(
  prefix: QueryKey,
  updater: (items: T[]) => T[],
  client: QueryClient = queryClient,
): void => {
  client.setQueriesData<PagedData<T>>({ queryKey: prefix, predicate: (query) => isPaged(query.state.data) }, (old) => {
    if (!old || old.pages.length === 0) return old;
    const items = old.pages.flatMap((page) => page.items);
    const next = updater(items);
    return next === items ? old : { ...old, pages: resplit(old.pages, next) };
  });
};

export type QueryStatus = 'idle' | 'loading' | 'success' | 'error';

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
  /** Replaces (or patches with a function) this key's cached data. */
  setData: (updater: T | undefined | ((old: T | undefined) => T | undefined)) => void;
}

const statusOf = (status: 'pending' | 'success' | 'error', fetching: boolean): QueryStatus =>
  status === 'pending' ? (fetching ? 'loading' : 'idle') : status;

/**
 * Loads server data for a component, shared by every component that asks for the same key (one request
 * for all of them). A thin wrapper over TanStack's `useQuery` on `queryClient`.
 */
export function useQuery<T>(key: QueryKey, fetcher: () => Promise<T>, options: QueryOptions = {}): QueryResult<T> {
  const { enabled = true, staleTime = 0, silent = false } = options;
  const query = useTanstackQuery<T>(
    {
      queryKey: key,
      // TanStack refuses `undefined` as data; an empty answer is kept as null.
      queryFn: async () => ((await fetcher()) ?? null) as T,
      enabled,
      staleTime,
      meta: { silent },
    },
    queryClient,
  );
  const hash = JSON.stringify(key);
  const refetch = useCallback(() => query.refetch().then((result) => result.data), [query.refetch]);
  const setData = useCallback(
    (updater: T | undefined | ((old: T | undefined) => T | undefined)) => {
      queryClient.setQueryData<T>(key, updater as T | ((old: T | undefined) => T | undefined));
    },
    // The key's content, not its identity.
    [hash],
  );
  return {
    data: query.data,
    error: query.error ?? undefined,
    status: statusOf(query.status, query.isFetching),
    isLoading: enabled && query.data === undefined && !query.isError,
    isFetching: query.isFetching,
    refetch,
    setData,
  };
}

export interface PagedResult<T> {
  data: PagedData<T> | undefined;
  error: unknown;
  status: QueryStatus;
  /** The rows of every loaded page, in order. */
  items: T[];
  hasMore: boolean;
  isLoading: boolean;
  isFetching: boolean;
  /** The next page is being loaded. */
  isLoadingMore: boolean;
  /** Loads the next page and appends it (infinite scroll); does nothing while one is loading or at the end. */
  loadMore: () => Promise<void>;
  refetch: () => Promise<unknown>;
}

/**
 * A paged list (search + infinite scroll) over TanStack's `useInfiniteQuery`: page 1 first, `loadMore`
 * appends the next one. Put the filters in the key, so a new filter starts again at page 1. An invalidation
 * reloads the pages already shown.
 */
export function usePagedQuery<T>(
  key: QueryKey,
  fetchPage: (pageNumber: number) => Promise<Page<T>>,
  options: QueryOptions = {},
): PagedResult<T> {
  const { enabled = true, staleTime = 0, silent = false } = options;
  const query = useInfiniteQuery<Page<T>, Error, PagedData<T>, QueryKey, number>(
    {
      queryKey: key,
      queryFn: ({ pageParam }) => fetchPage(pageParam),
      initialPageParam: 1,
      getNextPageParam: (last, _all, lastPage) => (last.hasMore ? lastPage + 1 : undefined),
      enabled,
      staleTime,
      meta: { silent },
    },
    queryClient,
  );
  const { data, hasNextPage, isFetchingNextPage, isFetching, fetchNextPage } = query;
  const items = useMemo(() => data?.pages.flatMap((page) => page.items) ?? [], [data]);
  const loadMore = useCallback(async () => {
    if (!hasNextPage || isFetchingNextPage || isFetching) return;
    await fetchNextPage({ cancelRefetch: false });
  }, [hasNextPage, isFetchingNextPage, isFetching, fetchNextPage]);
  return {
    data,
    error: query.error ?? undefined,
    status: statusOf(query.status, isFetching),
    items,
    hasMore: !!hasNextPage,
    isLoading: enabled && data === undefined && !query.isError,
    isFetching,
    isLoadingMore: isFetchingNextPage,
    loadMore,
    refetch: query.refetch,
  };
}
