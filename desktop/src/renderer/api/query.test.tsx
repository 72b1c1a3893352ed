import { act, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { subscribeToasts, type ToastMessage } from '../components/toasts';
import { useAuthStore } from '../stores/auth-store';
import { signIn } from '../test/render';
import { GC_TIME, queryClient, updatePagedItems, usePagedQuery, useQuery, type PagedData } from './query';
import { endSessionLocally } from './session';

const deferred = <T,>() => {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
};

const collectToasts = () => {
  const toasts: ToastMessage[] = [];
  const stop = subscribeToasts((toast) => toasts.push(toast));
  return { toasts, stop };
};

describe('query cache (TanStack Query)', () => {
  it('shares one request between the components that show the same key', async () => {
    let calls = 0;
    const gate = deferred<string[]>();
    const fetcher = () => {
      calls += 1;
      return gate.promise;
    };
    function Names({ id }: { id: string }) {
      const { data } = useQuery(['users'], fetcher);
      return <div data-testid={id}>{data?.join(',') ?? 'none'}</div>;
    }
    render(
      <>
        <Names id="a" />
        <Names id="b" />
      </>,
    );
    await act(async () => gate.resolve(['ana']));
    await waitFor(() => expect(screen.getByTestId('a').textContent).toBe('ana'));
    expect(screen.getByTestId('b').textContent).toBe('ana');
    expect(calls).toBe(1);
    expect(queryClient.getQueryData(['users'])).toEqual(['ana']);
  });

  it('keeps no entry forever: unused entries are collected after GC_TIME', () => {
    expect(queryClient.getDefaultOptions().queries?.gcTime).toBe(GC_TIME);
    expect(GC_TIME).toBeGreaterThan(0);
    expect(Number.isFinite(GC_TIME)).toBe(true);
  });

  it('invalidation by prefix reloads every key under it that is on screen, and only those', async () => {
    const calls: Record<string, number> = { open: 0, pending: 0, users: 0 };
    function List({ name, queryKey }: { name: string; queryKey: unknown[] }) {
      const { data } = useQuery(queryKey, async () => `${name}${++calls[name]}`);
      return <div data-testid={name}>{data ?? 'none'}</div>;
    }
    render(
      <>
        <List name="open" queryKey={['tickets', { status: 'open' }]} />
        <List name="pending" queryKey={['tickets', { status: 'pending' }]} />
        <List name="users" queryKey={['users']} />
      </>,
    );
    await waitFor(() => expect(screen.getByTestId('users').textContent).toBe('users1'));
    await waitFor(() => expect(screen.getByTestId('open').textContent).toBe('open1'));
    await act(() => queryClient.invalidateQueries({ queryKey: ['tickets'] }));
    expect(screen.getByTestId('open').textContent).toBe('open2');
    expect(screen.getByTestId('pending').textContent).toBe('pending2');
    expect(screen.getByTestId('users').textContent).toBe('users1');
  });

  it('patches cached data in place (what realtime handlers do) without a request', async () => {
    let calls = 0;
    function Tickets() {
      const { data } = useQuery(['tickets', { status: 'open' }], async () => {
        calls += 1;
        return [{ id: 1, unread: 0 }];
      });
      return <div data-testid="tickets">{JSON.stringify(data ?? null)}</div>;
    }
    render(<Tickets />);
    await waitFor(() => expect(screen.getByTestId('tickets').textContent).toBe('[{"id":1,"unread":0}]'));
    act(() =>
      queryClient.setQueriesData<{ id: number; unread: number }[]>({ queryKey: ['tickets'] }, (old) =>
        old?.map((t) => ({ ...t, unread: t.unread + 1 })),
      ),
    );
    expect(screen.getByTestId('tickets').textContent).toBe('[{"id":1,"unread":1}]');
    expect(calls).toBe(1);
  });

  it('a failed load reaches the error toast, unless the query is silent', async () => {
    const { toasts, stop } = collectToasts();
    function Failing({ silent, id }: { silent: boolean; id: string }) {
      const { status } = useQuery([id], async () => Promise.reject({ error: 'ERR_BOOM' }), { silent });
      return <div data-testid={id}>{status}</div>;
    }
    render(
      <>
        <Failing id="loud" silent={false} />
        <Failing id="quiet" silent />
      </>,
    );
    await waitFor(() => expect(screen.getByTestId('loud').textContent).toBe('error'));
    await waitFor(() => expect(screen.getByTestId('quiet').textContent).toBe('error'));
    stop();
    expect(toasts.filter((t) => t.intent === 'error')).toHaveLength(1);
    expect(toasts[0].message).toContain('ERR_BOOM');
  });

  it('the end of the session forgets every entry and drops answers still on their way', async () => {
    signIn();
    let version = 0;
    function Users() {
      const { data } = useQuery(['users'], async () => `v${++version}`);
      return <div data-testid="users">{data ?? 'none'}</div>;
    }
    const { unmount } = render(<Users />);
    await waitFor(() => expect(screen.getByTestId('users').textContent).toBe('v1'));
    await act(() => queryClient.invalidateQueries({ queryKey: ['users'] }));
    expect(screen.getByTestId('users').textContent).toBe('v2');
    unmount();

    // An answer still out when the session ends is dropped.
    const late = deferred<string>();
    function Slow() {
      const { data } = useQuery(['slow'], () => late.promise);
      return <div data-testid="slow">{data ?? 'none'}</div>;
    }
    render(<Slow />);
    await waitFor(() => expect(queryClient.isFetching({ queryKey: ['slow'] })).toBe(1));
    act(() => endSessionLocally());
    expect(useAuthStore.getState().status).toBe('guest');
    await act(async () => late.resolve('old session'));
    expect(screen.getByTestId('slow').textContent).toBe('none');
    expect(queryClient.getQueryData(['slow'])).toBeUndefined();
    expect(queryClient.getQueryData(['users'])).toBeUndefined();
    expect(queryClient.getQueryCache().find({ queryKey: ['users'] })).toBeUndefined();
  });

  it('pages: loadMore appends the next page; an invalidation reloads the pages shown', async () => {
    const pages: Record<number, { items: number[]; hasMore: boolean }> = {
      1: { items: [1, 2], hasMore: true },
      2: { items: [3], hasMore: false },
    };
    let load: () => Promise<void> = async () => undefined;
    function List() {
      const list = usePagedQuery(['numbers', { search: '' }], async (page) => pages[page]);
      load = list.loadMore;
      return <div data-testid="list">{`${list.items.join(',')}|${list.hasMore}`}</div>;
    }
    render(<List />);
    await waitFor(() => expect(screen.getByTestId('list').textContent).toBe('1,2|true'));
    await act(() => load());
    expect(screen.getByTestId('list').textContent).toBe('1,2,3|false');
    await act(() => load());
    expect(screen.getByTestId('list').textContent).toBe('1,2,3|false');

    pages[1] = { items: [1, 2], hasMore: true };
    pages[2] = { items: [3, 4], hasMore: false };
    await act(() => queryClient.invalidateQueries({ queryKey: ['numbers'] }));
    expect(screen.getByTestId('list').textContent).toBe('1,2,3,4|false');
  });

  it('updatePagedItems patches the rows of every paged list under a prefix', async () => {
    const seed = (search: string, pages: number[][]): void => {
      queryClient.setQueryData<PagedData<number>>(['numbers', { search }], {
        pages: pages.map((items, i) => ({ items, hasMore: i < pages.length - 1 })),
        pageParams: pages.map((_, i) => i + 1),
      });
    };
    seed('', [[1, 2], [3]]);
    seed('x', [[2]]);
    queryClient.setQueryData(['numbers', 'total'], 3);
    updatePagedItems<number>(['numbers'], (items) => items.filter((n) => n !== 2));
    expect(queryClient.getQueryData<PagedData<number>>(['numbers', { search: '' }])?.pages.map((p) => p.items)).toEqual([[1, 3], []]);
    expect(queryClient.getQueryData<PagedData<number>>(['numbers', { search: 'x' }])?.pages.map((p) => p.items)).toEqual([[]]);
    expect(queryClient.getQueryData(['numbers', 'total'])).toBe(3);
    updatePagedItems<number>(['numbers', { search: '' }], (items) => [0, ...items]);
    expect(queryClient.getQueryData<PagedData<number>>(['numbers', { search: '' }])?.pages.map((p) => p.items)).toEqual([[0, 1], [3]]);
  });
});
