import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { realtime } from '../../../api/socket';
import { collectToasts, fakeServer, renderWithProviders, signIn, type FakeCall } from '../../../test/render';
import { startSocketServer, until, type TestSocketServer } from '../../../test/socket-server';
import { usePreferences } from '../../../stores/preferences-store';
import type { Message } from '../api/types';
import { makeMessage } from '../test/fake-tickets-server';
import { MAX_FILES, MessageInput, quickLabel } from './message-input';

// The real picker is a large lazy bundle; this stand-in offers one emoji the way it reports a click.
vi.mock('emoji-picker-react', () => ({
  default: ({ onEmojiClick }: { onEmojiClick: (e: { emoji: string }) => void }) => (
    <button type="button" onClick={() => onEmojiClick({ emoji: '😀' })}>
      pick-emoji
    </button>
  ),
}));

const QUICK: { id: number; shortcode: string; message: string; mediaUrl?: string; mediaName?: string; status?: boolean }[] = [
  { id: 1, shortcode: 'hello', message: 'Hello! How can I help you today with your order?' },
  { id: 2, shortcode: 'bye', message: 'Bye!' },
  { id: 3, shortcode: 'helpdesk', message: 'Our manual is attached.', mediaUrl: '/media/3/manual.pdf?expires=1&signature=s', mediaName: 'manual.pdf' },
];

let calls: FakeCall[];
beforeEach(() => {
  calls = fakeServer((call) => {
    if (call.url === '/quick-messages/list') return { data: QUICK };
    if (call.method === 'GET' && call.url.startsWith('/media/3/manual.pdf')) {
      return { data: new Blob(['%PDF-1.4 manual'], { type: 'application/pdf' }) };
    }
    if (call.method === 'POST' && call.url.startsWith('/messages/')) {
      if (call.data instanceof FormData) {
        return { data: call.data.getAll('medias').map((f, i) => makeMessage(200 + i, 5, { fromMe: true, mediaName: (f as File).name })) };
      }
      return { data: makeMessage(99, 5, { fromMe: true, body: String((call.data as { body: string }).body) }) };
    }
    return undefined;
  });
});

const posts = () => calls.filter((c) => c.method === 'POST');

const renderInput = (
  status: 'open' | 'pending' | 'closed' = 'open',
  props: { replyTo?: Message | null; onSent?: (messages: Message[]) => void; onCancelReply?: () => void } = {},
) =>
  renderWithProviders(
    <MessageInput ticketId={5} status={status} replyTo={props.replyTo ?? null} onCancelReply={props.onCancelReply ?? (() => undefined)} onSent={props.onSent} />,
  );

const input = () => screen.getByTestId('message-input') as HTMLTextAreaElement;
const caption = (i: number) => screen.getByTestId(`file-caption-${i}`) as HTMLInputElement;
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

describe('emoji picker', () => {
  it('inserts the emoji at the caret, not at the end, and leaves the caret after it', async () => {
    renderInput();
    type('Hello world');
    input().setSelectionRange(5, 5);
    fireEvent.click(screen.getByRole('button', { name: 'Emoji' }));
    fireEvent.click(await screen.findByText('pick-emoji'));
    expect(input().value).toBe('Hello😀 world');
    expect(input().selectionStart).toBe(5 + '😀'.length);
  });

  it('replaces a selected range', async () => {
    renderInput();
    type('Hello world');
    input().setSelectionRange(6, 11);
    fireEvent.click(screen.getByRole('button', { name: 'Emoji' }));
    fireEvent.click(await screen.findByText('pick-emoji'));
    expect(input().value).toBe('Hello 😀');
  });
});

describe('attachments', () => {
  const file = (name: string, type = 'image/png') => new File([new Uint8Array(16)], name, { type });
  const choose = (...files: File[]) => fireEvent.change(screen.getByTestId('message-files'), { target: { files } });

  it('sends each file with its own caption; typed text becomes the first caption', async () => {
    const onSent = vi.fn();
    renderInput('open', { onSent });
    type('Here are the photos');
    choose(file('front.png'), file('back.png'));
    expect(screen.getByTestId('selected-files').textContent).toContain('2 files selected');
    expect(caption(0).value).toBe('Here are the photos');
    expect(caption(1).value).toBe('');
    // The text box gives way to the captions while files are chosen.
    expect(screen.queryByTestId('message-input')).toBeNull();
    fireEvent.change(caption(1), { target: { value: 'and the back' } });
    fireEvent.click(screen.getByTestId('message-send'));

    await waitFor(() => expect(posts()).toHaveLength(1));
    const form = posts()[0].data as FormData;
    expect(posts()[0].url).toBe('/messages/5');
    expect(form.getAll('medias').map((f) => (f as File).name)).toEqual(['front.png', 'back.png']);
    expect(form.getAll('body')).toEqual(['Here are the photos', 'and the back']);
    expect(form.get('signMessage')).toBe('true');
    await waitFor(() => expect(onSent).toHaveBeenCalledWith([expect.objectContaining({ id: 200 }), expect.objectContaining({ id: 201 })]));
    expect(screen.queryByTestId('selected-files')).toBeNull();
    expect(input().value).toBe('');
  });

  it('removes one chosen file, and the text box returns when none is left', () => {
    renderInput();
    choose(file('a.png'), file('b.pdf', 'application/pdf'));
    fireEvent.click(screen.getByRole('button', { name: 'Remove a.png' }));
    expect(within(screen.getByTestId('selected-files')).queryByText('a.png')).toBeNull();
    expect(screen.getByTestId('selected-files').textContent).toContain('b.pdf');
    fireEvent.click(screen.getByRole('button', { name: 'Remove b.pdf' }));
    expect(screen.queryByTestId('selected-files')).toBeNull();
    expect(screen.getByTestId('message-input')).toBeTruthy();
  });

  it('takes pasted files, adding to those chosen', async () => {
    renderInput();
    fireEvent.paste(input(), { clipboardData: { files: [file('pasted-1.png')] } });
    expect(caption(0)).toBeTruthy();
    fireEvent.paste(screen.getByTestId('selected-files'), { clipboardData: { files: [file('pasted-2.png')] } });
    fireEvent.change(caption(1), { target: { value: 'second' } });
    fireEvent.keyDown(caption(1), { key: 'Enter' });
    await waitFor(() => expect(posts()).toHaveLength(1));
    const form = posts()[0].data as FormData;
    expect(form.getAll('medias').map((f) => (f as File).name)).toEqual(['pasted-1.png', 'pasted-2.png']);
    expect(form.getAll('body')).toEqual(['', 'second']);
  });

  it('pasting text is left to the text box', () => {
    renderInput();
    const event = fireEvent.paste(input(), { clipboardData: { files: [] } });
    expect(event).toBe(true);
    expect(screen.queryByTestId('selected-files')).toBeNull();
  });

  it(`keeps at most ${MAX_FILES} files per message and says so`, () => {
    const toasts = collectToasts();
    renderInput();
    choose(...Array.from({ length: MAX_FILES + 2 }, (_, i) => file(`f${i}.png`)));
    expect(screen.getAllByTestId(/^selected-file-\d+$/)).toHaveLength(MAX_FILES);
    expect(toasts.some((t) => t.intent === 'warning')).toBe(true);
  });

  it('sends the reply being quoted with the files', async () => {
    const onCancelReply = vi.fn();
    renderInput('open', { replyTo: makeMessage(42, 5, { body: 'Send me the invoice' }), onCancelReply });
    expect(screen.getByTestId('reply-preview').textContent).toContain('Send me the invoice');
    choose(file('invoice.pdf', 'application/pdf'));
    fireEvent.click(screen.getByTestId('message-send'));
    await waitFor(() => expect(posts()).toHaveLength(1));
    expect((posts()[0].data as FormData).get('quotedMsgId')).toBe('42');
    await waitFor(() => expect(onCancelReply).toHaveBeenCalled());
  });

  it('cannot attach on a closed ticket', () => {
    renderInput('closed');
    expect((screen.getByRole('button', { name: 'Attach files' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.paste(input(), { clipboardData: { files: [file('x.png')] } });
    expect(screen.queryByTestId('selected-files')).toBeNull();
  });
});

describe('quick answers', () => {
  it('Enter takes the highlighted answer instead of sending the shortcut; arrows move', async () => {
    renderInput();
    type('/he');
    await screen.findByTestId('quick-answers');
    fireEvent.keyDown(input(), { key: 'ArrowDown' });
    expect(screen.getAllByRole('option')[1].getAttribute('aria-selected')).toBe('true');
    fireEvent.keyDown(input(), { key: 'ArrowUp' });
    fireEvent.keyDown(input(), { key: 'Enter' });
    expect(input().value).toBe(QUICK[0].message);
    expect(posts()).toHaveLength(0);
  });

  it('an answer with a file attaches the file with the answer as its caption', async () => {
    renderInput();
    type('/helpd');
    fireEvent.click(await screen.findByRole('option', { name: /helpdesk/ }));
    await waitFor(() => expect(caption(0).value).toBe('Our manual is attached.'));
    expect(screen.getByTestId('selected-files').textContent).toContain('manual.pdf');
    fireEvent.click(screen.getByTestId('message-send'));
    await waitFor(() => expect(posts()).toHaveLength(1));
    const form = posts()[0].data as FormData;
    const sent = form.get('medias') as File;
    expect(sent.name).toBe('manual.pdf');
    expect(sent.type).toBe('application/pdf');
    expect(await sent.text()).toBe('%PDF-1.4 manual');
    expect(form.getAll('body')).toEqual(['Our manual is attached.']);
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

  it('cancelling a recording sends nothing', async () => {
    nextSize = 50000;
    renderInput();
    fireEvent.click(screen.getByTestId('record-start'));
    await screen.findByTestId('recording');
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Cancel recording' }));
    });
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

  it('shows the time recorded so far while recording', async () => {
    // Only the clock is faked: the display's own timer keeps running.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const start = new Date('2024-05-03T10:00:00Z').getTime();
      vi.setSystemTime(start);
      renderInput();
      fireEvent.click(screen.getByTestId('record-start'));
      await screen.findByTestId('recording');
      expect(screen.getByTestId('recording-elapsed').textContent).toBe('0:00');
      vi.setSystemTime(start + 65_400);
      await waitFor(() => expect(screen.getByTestId('recording-elapsed').textContent).toBe('1:05'));
      await act(async () => {
        fireEvent.click(screen.getByRole('button', { name: 'Cancel recording' }));
      });
    } finally {
      vi.useRealTimers();
    }
  });

  it('cannot record on a closed ticket', () => {
    renderInput('closed');
    expect((screen.getByTestId('record-start') as HTMLButtonElement).disabled).toBe(true);
  });
});

describe('quick answers from the server', () => {
  let socketServer: TestSocketServer;
  beforeAll(async () => {
    socketServer = await startSocketServer();
  });
  afterAll(async () => {
    realtime.disconnect();
    await socketServer.close();
  });

  it('never offers one that is switched off', async () => {
    QUICK.push({ id: 4, shortcode: 'helper-off', message: 'Switched off.', status: false });
    try {
      renderInput();
      type('/help');
      const list = await screen.findByTestId('quick-answers');
      const offered = within(list).getAllByRole('option').map((o) => o.textContent);
      expect(offered.length).toBeGreaterThan(0);
      expect(offered.some((text) => text?.includes('helper-off'))).toBe(false);
    } finally {
      QUICK.pop();
    }
  });

  it('reads the list again when a quick message changes elsewhere (company-{id}-quickmessage)', async () => {
    signIn({ companyId: 3 });
    renderInput();
    type('/shared');
    await waitFor(() => expect(calls.filter((c) => c.url === '/quick-messages/list')).toHaveLength(1));
    expect(screen.queryByTestId('quick-answers')).toBeNull();
    realtime.connect({ url: socketServer.url, token: 'token-1', companyId: 3, userId: 7, renewToken: async () => null });
    await until(() => realtime.connected && socketServer.sockets.length > 0);
    QUICK.push({ id: 5, shortcode: 'shared-now', message: 'Shared by an admin.' });
    try {
      socketServer.sockets[socketServer.sockets.length - 1].emit('company-3-quickmessage', { action: 'create', record: QUICK[QUICK.length - 1] });
      const list = await screen.findByTestId('quick-answers');
      expect(within(list).getByRole('option').textContent).toContain('shared-now');
    } finally {
      QUICK.pop();
    }
  });
});
