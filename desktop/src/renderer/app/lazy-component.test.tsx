import { Suspense } from 'react';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { lazyComponent } from './lazy-component';

const Page = () => <p>the page</p>;

describe('lazyComponent', () => {
  it('renders a component fetched beforehand in the first render, without the fallback', async () => {
    let stringsLoaded = false;
    const Lazy = lazyComponent(
      async () => ({ default: Page }),
      async () => {
        stringsLoaded = true;
      },
    );
    await Lazy.preload();
    expect(stringsLoaded).toBe(true);
    render(
      <Suspense fallback={<p>spinner</p>}>
        <Lazy />
      </Suspense>,
    );
    // No await: what the first render committed.
    expect(screen.queryByText('spinner')).toBeNull();
    expect(screen.getByText('the page')).toBeTruthy();
  });

  it('shows the fallback until a component not fetched yet has come, fetching it once', async () => {
    let loads = 0;
    const Lazy = lazyComponent(async () => {
      loads += 1;
      return { default: Page };
    });
    render(
      <Suspense fallback={<p>spinner</p>}>
        <Lazy />
      </Suspense>,
    );
    expect(screen.getByText('spinner')).toBeTruthy();
    expect(await screen.findByText('the page')).toBeTruthy();
    await Lazy.preload();
    expect(loads).toBe(1);
  });
});
