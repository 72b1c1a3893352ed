import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { fakeServer, renderWithProviders, type FakeCall } from '../../../test/render';
import { usePreferences } from '../../../stores/preferences-store';
import { MessageInput, quickLabel } from './message-input';

const QUICK = [
  { id: 1, shortcode: 'hello', message: 'Hello! How can I help you today with your order?' },
  { id: 2, shortcode: 'bye', message: 'Bye!' },
];

let calls: FakeCall[];
beforeEach(() => {
  calls = fakeServer((call) => {
    if (call.url === '/quick-messages/list') return { data: QUICK };
    if (call.method === 'POST' && call.url.startsWith('/messages/')) return { data: { id: 99 } };
    return undefined;
  });
});

const posts = () => calls.filter((c) => c.method === 'POST');

const renderInput = (status: 'open' | 'pending' | 'closed' = 'open') =>
  renderWithProviders(<MessageInput ticketId={5} status={status} replyTo={null} onCancelReply={() => undefined} />);

const input = () => screen.getByTestId('message-input') as HTMLTextAreaElement;
const type = (value: string) => fireEvent.change(input(), { target: { value } });

describe('message input', () => {
  it('does not send empty or blank text', async () => {
    renderInput();
    type('   ');
    fireEvent.keyDown(input(), { key: 'Enter' });
    fireEvent.click(screen.getByTestId('message-send'));
    await new Promise((r) => setTimeout(r, 50));
    expect(posts()).toHaveLength(0);
  });

  it('Enter sends, Shift+Enter does not', async () => {
    renderInput();
    type('line one');
    fireEvent.keyDown(input(), { key: 'Enter', shiftKey: true });
    await new Promise((r) => setTimeout(r, 50));
    expect(posts()).toHaveLength(0);
    fireEvent.keyDown(input(), { key: 'Enter' });
    await waitFor(() => expect(posts()).toHaveLength(1));
    expect(posts()[0]).toMatchObject({ url: '/messages/5', data: { body: 'line one', signMessage: true } });
    await waitFor(() => expect(input().value).toBe(''));
  });

  it('grows with the text up to 5 rows', () => {
    renderInput();
    type('a\nb\nc');
    expect(Number(input().getAttribute('rows'))).toBe(3);
    type('1\n2\n3\n4\n5\n6\n7');
    expect(Number(input().getAttribute('rows'))).toBe(5);
  });

  it('shows quick answers when the text starts with / and has more than 1 character', async () => {
    renderInput();
    type('/');
    expect(screen.queryByTestId('quick-answers')).toBeNull();
    type('/hel');
    const list = await screen.findByTestId('quick-answers');
    const option = list.querySelector('[role="option"]') as HTMLElement;
    expect(option.textContent).toBe(quickLabel('hello', QUICK[0].message));
    expect(option.textContent?.length).toBe(38); // 35 characters and the ellipsis
    fireEvent.click(option);
    expect(input().value).toBe(QUICK[0].message);
    expect(screen.queryByTestId('quick-answers')).toBeNull();
  });

  it('is disabled on a closed ticket and sends nothing', async () => {
    renderInput('closed');
    expect(input().disabled).toBe(true);
    expect((screen.getByTestId('message-send') as HTMLButtonElement).disabled).toBe(true);
    fireEvent.keyDown(input(), { key: 'Enter' });
    await new Promise((r) => setTimeout(r, 50));
    expect(posts()).toHaveLength(0);
  });

  it('is disabled on a pending ticket', () => {
    renderInput('pending');
    expect(input().disabled).toBe(true);
  });

  it('the sign switch follows the preference and is sent', async () => {
    renderInput();
    const sign = screen.getByRole('switch') as HTMLInputElement;
    expect(sign.checked).toBe(true);
    fireEvent.click(sign);
    expect(usePreferences.getState().signMessage).toBe(false);
    type('unsigned');
    fireEvent.keyDown(input(), { key: 'Enter' });
    await waitFor(() => expect(posts()).toHaveLength(1));
    expect(posts()[0].data).toMatchObject({ body: 'unsigned', signMessage: false });
  });

  it('hides the sign switch under the md width', () => {
    const width = window.innerWidth;
    Object.defineProperty(window, 'innerWidth', { configurable: true, value: 500 });
    try {
      renderInput();
      expect(screen.queryByRole('switch')).toBeNull();
    } finally {
      Object.defineProperty(window, 'innerWidth', { configurable: true, value: width });
    }
  });
});

describe('audio recording', () => {
  let nextSize = 0;
  class FakeRecorder {
    static last: FakeRecorder | undefined;
    state = 'inactive';
    mimeType = 'audio/webm';
    ondataavailable: ((e: { data: Blob }) => void) | null = null;
    onstop: (() => void) | null = null;
    constructor(public stream: unknown, public options: { audioBitsPerSecond?: number }) {
      FakeRecorder.last = this;
    }
    start() {
      this.state = 'recording';
    }
    stop() {
      this.state = 'inactive';
      this.ondataavailable?.({ data: new Blob([new Uint8Array(nextSize)]) });
      this.onstop?.();
    }
  }

  beforeEach(() => {
    vi.stubGlobal('MediaRecorder', FakeRecorder);
    Object.defineProperty(navigator, 'mediaDevices', {
      configurable: true,
      value: { getUserMedia: vi.fn(async () => ({ getTracks: () => [{ stop: vi.fn() }] })) },
    });
  });
  afterEach(() => vi.unstubAllGlobals());

  const record = async () => {
    fireEvent.click(screen.getByTestId('record-start'));
    await screen.findByTestId('recording');
    expect(FakeRecorder.last?.options.audioBitsPerSecond).toBe(128000);
    // The text input is gone (disabled) while recording.
    expect(screen.queryByTestId('message-input')).toBeNull();
    await act(async () => {
      fireEvent.click(screen.getByTestId('record-send'));
    });
  };

  it('discards recordings under 10000 bytes silently', async () => {
    nextSize = 9999;
    renderInput();
    await record();
    await screen.findByTestId('message-input');
    await new Promise((r) => setTimeout(r, 50));
    expect(posts()).toHaveLength(0);
  });

  it('sends a recording of 10000 bytes or more as a voice note', async () => {
    nextSize = 12000;
    renderInput();
    await record();
    await waitFor(() => expect(posts()).toHaveLength(1));
    const form = posts()[0].data as FormData;
    expect(form.get('voiceNote')).toBe('true');
    expect((form.get('medias') as File).size).toBe(12000);
  });

  it('cannot record on a closed ticket', () => {
    renderInput('closed');
    expect((screen.getByTestId('record-start') as HTMLButtonElement).disabled).toBe(true);
  });
});
