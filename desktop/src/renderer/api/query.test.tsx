import { act, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useAuthStore } from '../stores/auth-store';
import { signIn } from '../test/render';
import { QueryClient, queryClient, usePagedQuery, useQuery } from './query';
import { endSessionLocally } from './session';

const deferred = <T,>() => {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
};

describe('query cache', () => {
  it('shares one request between callers of the same key', async () => {
    const client = new QueryClient();
    let calls = 0;
    const gate = deferred<string[]>();
    const fetcher = () => {
      calls += 1;
      return gate.promise;
    };
    const a = client.fetch(['users'], fetcher);
    const b = client.fetch(['users'], fetcher);
    gate.resolve(['ana']);
    expect(await a).toEqual(['ana']);
    expect(await b).toEqual(['ana']);
    expect(calls).toBe(1);
    expect(client.getData(['users'])).toEqual(['ana']);
  });

  it('patches data in place and across keys by prefix', () => {
    const client = new QueryClient();
    client.setData(['tickets', { status: 'open' }], [{ id: 1 }]);
    client.setData(['tickets', { status: 'pending' }], [{ id: 2 }]);
    client.setData(['users'], [{ id: 9 }]);
    client.updateAll<{ id: number }[]>(['tickets'], (old) => old?.map((t) => ({ ...t, seen: true }) as { id: number }));
    expect(client.getData(['tickets', { status: 'open' }])).toEqual([{ id: 1, seen: true }]);
    expect(client.getData(['tickets', { status: 'pending' }])).toEqual([{ id: 2, seen: true }]);
    expect(client.getData(['users'])).toEqual([{ id: 9 }]);
  });

  it('reloads what is on screen when invalidated, and forgets everything when the session ends', async () => {
    signIn();
    let version = 0;
    function Users() {
      const { data } = useQuery(['users'], async () => `v${++version}`);
      return <div data-testid="users">{data ?? 'none'}</div>;
    }
    render(<Users />);
    await waitFor(() => expect(screen.getByTestId('users').textContent).toBe('v1'));
    act(() => queryClient.invalidate(['users']));
    await waitFor(() => expect(screen.getByTestId('users').textContent).toBe('v2'));
    act(() => endSessionLocally());
    expect(useAuthStore.getState().status).toBe('guest');
    expect(screen.getByTestId('users').textContent).toBe('none');
  });

  it('pages: loadMore appends the next page', async () => {
    const pages: Record<number, { items: number[]; hasMore: boolean }> = {
      1: { items: [1, 2], hasMore: true },
      2: { items: [3], hasMore: false },
    };
    let load: () => Promise<void> = async () => undefined;
    function List() {
      const list = usePagedQuery(['numbers'], async (page) => pages[page]);
      load = list.loadMore;
      return <div data-testid="list">{`${list.items.join(',')}|${list.hasMore}`}</div>;
    }
    render(<List />);
    await waitFor(() => expect(screen.getByTestId('list').textContent).toBe('1,2|true'));
    await act(() => load());
    expect(screen.getByTestId('list').textContent).toBe('1,2,3|false');
  });
});
