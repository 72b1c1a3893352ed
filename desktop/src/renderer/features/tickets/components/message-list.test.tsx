import { describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import { setServerUrl } from '../../../api/client';
import { i18n } from '../../../i18n';
import { renderWithProviders } from '../../../test/render';
import type { Message } from '../api/types';
import { buildRows, parseVcards } from '../lib/message-rows';
import { makeMessage } from '../test/fake-tickets-server';
import { MessageList } from './message-list';

const day = (d: number, h: number, min = 0) => new Date(2024, 4, d, h, min).toISOString();

const renderList = (messages: Message[], props: Partial<Parameters<typeof MessageList>[0]> = {}) =>
  renderWithProviders(
    <div style={{ height: 800, display: 'flex', flexDirection: 'column' }}>
      <MessageList messages={messages} hasMore={false} loading={false} loadOlder={async () => false} {...props} />
    </div>,
  );

const VCARD = 'BEGIN:VCARD\nVERSION:3.0\nFN:João Souza\nitem1.TEL;waid=5521912345678:+55 21 91234-5678\nEND:VCARD';
const LOCATION = 'data:image/jpeg;base64,AAAA|https://maps.google.com/maps?q=-23.5%2C-46.6&z=17|Av. Paulista - São Paulo';

describe('message bubbles: media of every type', () => {
  const media = [
    makeMessage(1, 5, { mediaType: 'image', mediaUrl: '/media/3/photo.jpg?expires=1&signature=s', mediaName: 'photo.jpg', body: 'Look at this' }),
    makeMessage(2, 5, { mediaType: 'audio', mediaUrl: '/media/3/voice.ogg?expires=1&signature=s', mediaName: 'voice.ogg', body: '' }),
    makeMessage(3, 5, { mediaType: 'video', mediaUrl: '/media/3/clip.mp4?expires=1&signature=s', mediaName: 'clip.mp4', body: '' }),
    makeMessage(4, 5, { mediaType: 'application', mediaUrl: '/media/3/invoice.pdf?expires=1&signature=s', mediaName: 'invoice.pdf', body: 'invoice.pdf' }),
    makeMessage(5, 5, { mediaType: 'locationMessage', body: LOCATION }),
    makeMessage(6, 5, { mediaType: 'contactMessage', body: VCARD }),
    makeMessage(7, 5, { mediaType: 'sticker', mediaUrl: '/media/3/sticker.webp?expires=1&signature=s', mediaName: 'sticker.webp', body: '' }),
    makeMessage(8, 5, { mediaType: 'call_log', body: '14:05' }),
    makeMessage(9, 5, { mediaType: 'document', mediaUrl: '/media/3/sheet.xlsx?expires=1&signature=s', mediaName: 'sheet.xlsx', body: '' }),
  ];

  it('shows each kind as what it is, with URLs on the configured server', () => {
    setServerUrl('http://desk.example:8080');
    renderList(media);
    const image = screen.getByTestId('media-image-1') as HTMLImageElement;
    expect(image.getAttribute('src')).toBe('http://desk.example:8080/media/3/photo.jpg?expires=1&signature=s');
    expect(screen.getByTestId('message-1').textContent).toContain('Look at this');

    expect(screen.getByTestId('media-audio-2').tagName).toBe('AUDIO');
    expect(screen.getByTestId('media-audio-2').getAttribute('src')).toBe('http://desk.example:8080/media/3/voice.ogg?expires=1&signature=s');
    expect(screen.getByTestId('media-video-3').tagName).toBe('VIDEO');

    const doc = within(screen.getByTestId('media-document-4')).getByRole('link');
    expect(doc.textContent).toBe('invoice.pdf');
    expect(doc.getAttribute('download')).toBe('invoice.pdf');
    // A caption equal to the file name is not repeated as text.
    expect(screen.getByTestId('message-4').textContent?.match(/invoice\.pdf/g)).toHaveLength(1);
    expect(within(screen.getByTestId('media-document-9')).getByRole('link').textContent).toBe('sheet.xlsx');

    // Location: image | link | description, and not the raw body.
    const location = screen.getByTestId('media-location-5');
    expect(location.querySelector('img')?.getAttribute('src')).toBe('data:image/jpeg;base64,AAAA');
    expect(within(location).getByRole('link').getAttribute('href')).toBe('https://maps.google.com/maps?q=-23.5%2C-46.6&z=17');
    expect(within(location).getByRole('link').textContent).toContain('Av. Paulista - São Paulo');
    expect(screen.getByTestId('message-5').textContent).not.toContain('|');

    const card = screen.getByTestId('media-vcard-6');
    expect(card.textContent).toContain('João Souza');
    expect(card.textContent).toContain('+55 21 91234-5678');
    expect(screen.getByTestId('message-6').textContent).not.toContain('BEGIN:VCARD');

    expect(screen.getByTestId('media-sticker-7').getAttribute('src')).toBe('http://desk.example:8080/media/3/sticker.webp?expires=1&signature=s');
    expect(screen.queryByTestId('media-document-7')).toBeNull();

    // The call log is a line of its own with the time the server wrote, and no bubble menu.
    const call = screen.getByTestId('message-8');
    expect(call.textContent).toContain('Missed voice call at 14:05');
    expect(within(call).queryByRole('button')).toBeNull();
  });

  it('a reaction shows its emoji under the message reacted to, not as a message of its own', () => {
    const original = makeMessage(1, 5, { fromMe: true, body: 'Seu pedido saiu para entrega' });
    const maria = { id: 11, name: 'Maria', number: '5511988887777' };
    renderList([
      original,
      makeMessage(2, 5, { mediaType: 'reactionMessage', body: '👍', quotedMsgId: 1, quotedMsg: original, contact: maria }),
      makeMessage(3, 5, { body: 'Obrigada!', contact: maria }),
      // Maria changes her mind: her latest reaction replaces the first.
      makeMessage(4, 5, { mediaType: 'reactionMessage', body: '❤️', quotedMsgId: 1, quotedMsg: original, contact: maria }),
    ]);
    expect(screen.queryByTestId('message-2')).toBeNull();
    expect(screen.queryByTestId('message-4')).toBeNull();
    const badge = screen.getByTestId('reactions-1');
    expect(badge.textContent).toBe('❤️');
    expect(badge.getAttribute('aria-label')).toBe('Reactions: ❤️ Maria');
    expect(screen.getByTestId('message-3').textContent).toContain('Obrigada!');
  });

  it('reactions of several people are listed; one to a message not loaded stays a bubble quoting it', () => {
    const original = makeMessage(10, 5, { body: 'Chegou?' });
    const older = makeMessage(1, 5, { body: 'Mensagem antiga' });
    renderList([
      original,
      makeMessage(11, 5, { mediaType: 'reactionMessage', body: '🙏', fromMe: true, user: null, quotedMsgId: 10, quotedMsg: original }),
      makeMessage(12, 5, { mediaType: 'reactionMessage', body: '👍', quotedMsgId: 10, quotedMsg: original, contact: { id: 11, name: 'Maria', number: '1' } }),
      makeMessage(13, 5, { mediaType: 'reactionMessage', body: '😂', quotedMsgId: 1, quotedMsg: older }),
    ]);
    const badge = screen.getByTestId('reactions-10');
    expect(badge.textContent).toBe('🙏👍');
    expect(badge.getAttribute('aria-label')).toBe('Reactions: 🙏 the company phone, 👍 Maria');
    const alone = screen.getByTestId('message-13');
    expect(within(alone).getByTestId('media-reaction-13').textContent).toBe('Reacted');
    expect(within(alone).getByTestId('quoted-13').textContent).toContain('Mensagem antiga');
    expect(alone.textContent).toContain('😂');
  });

  it('a reaction taken back is shown neither on the message nor as a bubble of its own', () => {
    const original = makeMessage(20, 5, { fromMe: true, body: 'Pedido confirmado' });
    const maria = { id: 11, name: 'Maria', number: '5511988887777' };
    renderList([
      original,
      makeMessage(21, 5, { mediaType: 'reactionMessage', body: '👍', quotedMsgId: 20, quotedMsg: original, contact: maria, isDeleted: true }),
      makeMessage(22, 5, { body: 'Ok', contact: maria }),
    ]);
    expect(screen.queryByTestId('reactions-20')).toBeNull();
    expect(screen.queryByTestId('message-21')).toBeNull();
    expect(screen.getByTestId('message-22').textContent).toContain('Ok');
  });

  it('a received file on its way shows it is downloading; one that never came says why, in each language', async () => {
    const rows = [
      makeMessage(40, 5, { mediaType: 'image', mediaStatus: 'pending', body: 'a foto' }),
      makeMessage(41, 5, { mediaType: 'video', mediaStatus: 'failed', body: '' }),
      makeMessage(42, 5, { mediaType: 'application', mediaStatus: 'tooLarge', mediaName: null, body: '' }),
    ];
    const texts: Record<string, string[]> = {
      en: ['downloading', 'could not be downloaded', 'too large'],
      pt: ['sendo baixado', 'Não foi possível baixar', 'grande demais'],
      es: ['se está descargando', 'No se pudo descargar', 'demasiado grande'],
    };
    try {
      for (const [language, [pending, failed, tooLarge]] of Object.entries(texts)) {
        await i18n.changeLanguage(language);
        const { unmount } = renderList(rows);
        expect(screen.getByTestId('media-status-40').getAttribute('data-status')).toBe('pending');
        expect(screen.getByTestId('media-status-40').textContent).toContain(pending);
        // The caption is there while the file comes; no broken image meanwhile.
        expect(screen.getByTestId('message-40').textContent).toContain('a foto');
        expect(screen.queryByTestId('media-image-40')).toBeNull();
        expect(screen.getByTestId('media-status-41').textContent).toContain(failed);
        expect(screen.getByTestId('media-status-42').textContent).toContain(tooLarge);
        expect(screen.queryByTestId('media-document-42')).toBeNull();
        unmount();
      }
    } finally {
      await i18n.changeLanguage('en');
    }
    // Once it came (the server's update), the file is shown as usual.
    renderList([makeMessage(40, 5, { mediaType: 'image', mediaStatus: null, mediaUrl: '/media/3/p.jpg?expires=1&signature=s', body: 'a foto' })]);
    expect(screen.queryByTestId('media-status-40')).toBeNull();
    expect(screen.getByTestId('media-image-40')).toBeTruthy();
  });

  it('a message that could not be read says the customer wrote', () => {
    renderList([makeMessage(30, 5, { mediaType: 'unavailable', body: '' })]);
    expect(screen.getByTestId('media-unavailable-30').textContent).toContain('cannot be shown here');
  });

  it('a placeholder names what the customer sent, in the reader’s language, never its code', async () => {
    const { unmount } = renderList([makeMessage(31, 5, { mediaType: 'unavailable', body: 'viewOnce' }), makeMessage(32, 5, { mediaType: 'unavailable', body: 'stickerPackMessage' })]);
    expect(screen.getByTestId('media-unavailable-31').textContent).toContain('view-once photo or video; open it on the phone');
    expect(screen.getByTestId('message-31').textContent).not.toContain('viewOnce');
    // A kind this version does not describe: a message that cannot be shown here.
    expect(screen.getByTestId('media-unavailable-32').textContent).toContain('cannot be shown here');
    unmount();
    await i18n.changeLanguage('pt');
    try {
      renderList([makeMessage(33, 5, { mediaType: 'unavailable', body: 'order' })]);
      expect(screen.getByTestId('media-unavailable-33').textContent).toContain('O cliente enviou um pedido');
    } finally {
      await i18n.changeLanguage('en');
    }
  });

  it('a contacts-array message shows every card', () => {
    const two = `${VCARD}\nBEGIN:VCARD\nVERSION:3.0\nFN:Carla Dias\nTEL;type=CELL:+55 11 90000-1111\nEND:VCARD`;
    expect(parseVcards(two)).toEqual([
      { name: 'João Souza', numbers: ['+55 21 91234-5678'] },
      { name: 'Carla Dias', numbers: ['+55 11 90000-1111'] },
    ]);
    renderList([makeMessage(1, 5, { mediaType: 'vcard', body: two })]);
    expect(screen.getByTestId('media-vcard-1').textContent).toContain('Carla Dias');
  });

  it('formats WhatsApp bold, italic and strike', () => {
    renderList([makeMessage(1, 5, { body: '*bold* _it_ ~gone~ plain' })]);
    const bubble = screen.getByTestId('message-1');
    expect(bubble.querySelector('strong')?.textContent).toBe('bold');
    expect(bubble.querySelector('em')?.textContent).toBe('it');
    expect(bubble.querySelector('s')?.textContent).toBe('gone');
  });
});

describe('message bubbles: markers, acks, quotes and the menu', () => {
  it('marks deleted and edited messages; a deleted one shows no content and no menu', () => {
    renderList([
      makeMessage(1, 5, { fromMe: true, isDeleted: true, body: '', mediaType: 'image', mediaUrl: null }),
      makeMessage(2, 5, { fromMe: true, isEdited: true, body: 'fixed typo', ack: 3 }),
    ]);
    const deleted = screen.getByTestId('message-1');
    expect(deleted.textContent).toContain('This message was deleted');
    expect(deleted.querySelector('img')).toBeNull();
    expect(within(deleted).queryByRole('button', { name: /^Message actions/ })).toBeNull();
    const edited = screen.getByTestId('message-2');
    expect(edited.textContent).toContain('fixed typo');
    expect(edited.textContent).toContain('Edited');
  });

  it('shows the ack of our own messages only', () => {
    renderList([
      makeMessage(1, 5, { fromMe: true, ack: 0 }),
      makeMessage(2, 5, { fromMe: true, ack: 1 }),
      makeMessage(3, 5, { fromMe: true, ack: 2 }),
      makeMessage(4, 5, { fromMe: true, ack: 4 }),
      makeMessage(5, 5, { fromMe: false, ack: 3 }),
    ]);
    for (const [id, ack] of [[1, 0], [2, 1], [3, 2], [4, 4]]) {
      expect(screen.getByTestId(`message-${id}`).querySelector(`[data-ack="${ack}"]`)).not.toBeNull();
    }
    expect(screen.getByTestId('message-5').querySelector('[data-ack]')).toBeNull();
  });

  it('shows the quoted message above the reply, with its author', () => {
    const original = makeMessage(1, 5, { body: 'Where is my order?', contact: { id: 11, name: 'Maria', number: '5511' } });
    const reply = makeMessage(2, 5, { fromMe: true, body: 'On its way!', quotedMsgId: 1, quotedMsg: original, user: { id: 7, name: 'Ana' } });
    const quotingDeleted = makeMessage(3, 5, { body: 'Why?', quotedMsgId: 9, quotedMsg: makeMessage(9, 5, { fromMe: true, isDeleted: true, body: '', user: { id: 7, name: 'Ana' } }) });
    renderList([original, reply, quotingDeleted]);
    const quoted = screen.getByTestId('quoted-2');
    expect(quoted.textContent).toContain('Maria');
    expect(quoted.textContent).toContain('Where is my order?');
    expect(screen.getByTestId('message-2').textContent).toContain('On its way!');
    expect(screen.getByTestId('quoted-3').textContent).toContain('Ana');
    expect(screen.getByTestId('quoted-3').textContent).toContain('This message was deleted');
    expect(screen.queryByTestId('quoted-1')).toBeNull();
  });

  it('offers reply on every message and delete only on our own', async () => {
    const onReply = vi.fn();
    const onDelete = vi.fn();
    renderList([makeMessage(1, 5, { fromMe: false }), makeMessage(2, 5, { fromMe: true })], { onReply, onDelete });
    fireEvent.click(within(screen.getByTestId('message-1')).getByRole('button', { name: /^Message actions/ }));
    expect(await screen.findByRole('menuitem', { name: 'Reply' })).toBeTruthy();
    expect(screen.queryByRole('menuitem', { name: 'Delete' })).toBeNull();
    fireEvent.click(screen.getByRole('menuitem', { name: 'Reply' }));
    expect(onReply).toHaveBeenCalledWith(expect.objectContaining({ id: 1 }));

    fireEvent.click(within(screen.getByTestId('message-2')).getByRole('button', { name: /^Message actions/ }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    expect(onDelete).toHaveBeenCalledWith(expect.objectContaining({ id: 2 }));
  });

  it('a read-only list (the peek dialog) has no menus', () => {
    renderList([makeMessage(1, 5, { fromMe: true })], { readOnly: true });
    expect(within(screen.getByTestId('message-1')).queryByRole('button', { name: /^Message actions/ })).toBeNull();
  });
});

describe('separators', () => {
  it('puts a dd/MM/yyyy separator before the first message of each day', () => {
    const messages = [
      makeMessage(1, 5, { createdAt: day(3, 9) }),
      makeMessage(2, 5, { createdAt: day(3, 18) }),
      makeMessage(3, 5, { createdAt: day(4, 8) }),
    ];
    expect(buildRows(messages).map((r) => r.kind)).toEqual(['date', 'message', 'message', 'date', 'message']);
    renderList(messages);
    expect(screen.getAllByTestId('date-separator').map((s) => s.textContent)).toEqual(['03/05/2024', '04/05/2024']);
  });

  it('a message sent without a ticket (a campaign’s) sits between tickets without a separator of its own', () => {
    const messages = [
      makeMessage(1, 4, { createdAt: day(3, 9, 15) }),
      makeMessage(2, null, { fromMe: true, createdAt: day(3, 12, 0) }),
      makeMessage(3, 5, { createdAt: day(3, 16, 5) }),
    ];
    expect(buildRows(messages).map((r) => (r.kind === 'ticket' ? `ticket ${r.closedTicketId}>${r.ticketId}` : r.kind))).toEqual([
      'date',
      'message',
      'message',
      'ticket 4>5',
      'message',
    ]);
    renderList(messages);
    expect(screen.getByTestId('ticket-separator-5').textContent).toContain('Ticket #4 closed · last message 03/05/2024 09:15');
  });

  it("marks where another ticket's messages begin: the old one closed, the new one started", () => {
    const messages = [
      makeMessage(1, 4, { createdAt: day(3, 9, 15) }),
      makeMessage(2, 4, { createdAt: day(3, 9, 40) }),
      makeMessage(3, 5, { createdAt: day(3, 16, 5) }),
    ];
    renderList(messages);
    const separator = screen.getByTestId('ticket-separator-5');
    // The message view has no closing time: the time shown is the old ticket's last message, and says so.
    expect(separator.textContent).toContain('Ticket #4 closed · last message 03/05/2024 09:40');
    expect(separator.textContent).toContain('Ticket #5 started 03/05/2024 16:05');
    // Same day: no second date separator.
    expect(screen.getAllByTestId('date-separator')).toHaveLength(1);
  });
});

describe('older pages', () => {
  const setScroll = (el: HTMLElement, top: number) => {
    Object.defineProperty(el, 'scrollTop', { configurable: true, value: top, writable: true });
    Object.defineProperty(el, 'scrollHeight', { configurable: true, value: 4000 });
    Object.defineProperty(el, 'clientHeight', { configurable: true, value: 800 });
  };

  it('loads the previous page when scrolled within 50 px of the top, and not before', async () => {
    const loadOlder = vi.fn(async () => true);
    renderList(Array.from({ length: 20 }, (_, i) => makeMessage(i + 1, 5)), { hasMore: true, loadOlder });
    const list = screen.getByTestId('message-list');
    setScroll(list, 51);
    fireEvent.scroll(list);
    expect(loadOlder).not.toHaveBeenCalled();
    setScroll(list, 49);
    fireEvent.scroll(list);
    expect(loadOlder).toHaveBeenCalledTimes(1);
  });

  it('asks for nothing when there is no older page', () => {
    const loadOlder = vi.fn(async () => true);
    renderList([makeMessage(1, 5)], { hasMore: false, loadOlder });
    const list = screen.getByTestId('message-list');
    setScroll(list, 0);
    fireEvent.scroll(list);
    expect(loadOlder).not.toHaveBeenCalled();
  });
});
