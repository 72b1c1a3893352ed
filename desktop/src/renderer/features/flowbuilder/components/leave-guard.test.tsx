import { useState } from 'react';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { BrowserRouter, Link, Route, Routes } from 'react-router';
import { AppProviders } from '../../../app/providers';
import { LocationProbe } from '../../../test/render';
import { LeaveDialog, useLeaveGuard } from './leave-guard';

/** An editor with an edit to keep, under the browser router the app runs on (real history, real popstate). */
function Editor() {
  const [edits, setEdits] = useState(0);
  const guard = useLeaveGuard(edits > 0);
  return (
    <div>
      <button data-testid="edit" onClick={() => setEdits((n) => n + 1)}>
        edit
      </button>
      <span data-testid="edits">{edits}</span>
      <LeaveDialog open={!!guard.pending} onStay={guard.stay} onLeave={guard.go} />
    </div>
  );
}

const renderRouter = () =>
  render(
    <AppProviders>
      <BrowserRouter>
        <Routes>
          <Route path="/list" element={<Link to="/editor" data-testid="open">open</Link>} />
          <Route path="/editor" element={<Editor />} />
          <Route path="/next" element={<span>next</span>} />
        </Routes>
        <LocationProbe />
      </BrowserRouter>
    </AppProviders>,
  );

const location = () => screen.getByTestId('location').textContent;
/** The browser's own back or forward button: the history moves, then the popstate comes. */
const browser = async (delta: number) => {
  await act(async () => {
    window.history.go(delta);
  });
};

afterEach(() => window.history.replaceState(null, '', '/'));

describe('leaving the flow editor with the browser', () => {
  it('back with unsaved edits asks and stays on the editor; Leave then goes back', async () => {
    window.history.replaceState(null, '', '/list');
    renderRouter();
    fireEvent.click(screen.getByTestId('open'));
    await waitFor(() => expect(location()).toBe('/editor'));
    fireEvent.click(screen.getByTestId('edit'));

    await browser(-1);
    await screen.findByTestId('flowbuilder-leave-dialog');
    // Still the editor, for the router and in the address bar, with the edit.
    await waitFor(() => expect(window.location.pathname).toBe('/editor'));
    expect(location()).toBe('/editor');
    expect(screen.getByTestId('edits').textContent).toBe('1');

    fireEvent.click(screen.getByTestId('flowbuilder-leave-stay'));
    await waitFor(() => expect(screen.queryByTestId('flowbuilder-leave-dialog')).toBeNull());
    expect(location()).toBe('/editor');
    expect(screen.getByTestId('edits').textContent).toBe('1');

    await browser(-1);
    fireEvent.click(await screen.findByTestId('flowbuilder-leave-go'));
    await waitFor(() => expect(location()).toBe('/list'));
    expect(window.location.pathname).toBe('/list');
  });

  it('forward asks too; without edits back and forward just go', async () => {
    window.history.replaceState(null, '', '/list');
    renderRouter();
    fireEvent.click(screen.getByTestId('open'));
    await waitFor(() => expect(location()).toBe('/editor'));
    // Nothing to lose: back goes at once.
    await browser(-1);
    await waitFor(() => expect(location()).toBe('/list'));
    await browser(1);
    await waitFor(() => expect(location()).toBe('/editor'));

    // An entry after the editor to go forward to.
    await act(async () => {
      window.history.pushState({ idx: (window.history.state as { idx: number }).idx + 1 }, '', '/next');
      window.history.back();
    });
    await waitFor(() => expect(window.location.pathname).toBe('/editor'));
    fireEvent.click(screen.getByTestId('edit'));
    await browser(1);
    await screen.findByTestId('flowbuilder-leave-dialog');
    await waitFor(() => expect(window.location.pathname).toBe('/editor'));
    expect(location()).toBe('/editor');
    fireEvent.click(screen.getByTestId('flowbuilder-leave-go'));
    await waitFor(() => expect(location()).toBe('/next'));
  });
});
