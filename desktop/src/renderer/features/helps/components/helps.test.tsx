import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeServer, planReply, renderApp, signIn } from '../../../test/render';
import { embedUrl, thumbnailUrl, youtubeId } from '../hooks/youtube';

describe('youtubeId', () => {
  it('takes a bare id or any usual YouTube link', () => {
    for (const video of [
      'dQw4w9WgXcQ',
      ' dQw4w9WgXcQ ',
      'https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=42s',
      'youtube.com/watch?v=dQw4w9WgXcQ',
      'https://m.youtube.com/watch?feature=share&v=dQw4w9WgXcQ',
      'https://youtu.be/dQw4w9WgXcQ?si=abc',
      'https://www.youtube.com/embed/dQw4w9WgXcQ',
      'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ',
      'https://www.youtube.com/shorts/dQw4w9WgXcQ',
      'https://www.youtube.com/live/dQw4w9WgXcQ',
    ]) {
      expect(youtubeId(video), video).toBe('dQw4w9WgXcQ');
    }
  });

  it('refuses anything else, so nothing from another site is embedded', () => {
    for (const video of ['', 'short', 'https://vimeo.com/123456789', 'https://evil.example/watch?v=dQw4w9WgXcQ', 'https://www.youtube.com/watch?v=bad', 'javascript:alert(1)', null]) {
      expect(youtubeId(video), String(video)).toBeNull();
    }
  });

  it('builds the thumbnail and embed addresses', () => {
    expect(thumbnailUrl('dQw4w9WgXcQ')).toBe('https://img.youtube.com/vi/dQw4w9WgXcQ/mqdefault.jpg');
    expect(embedUrl('dQw4w9WgXcQ')).toMatch(/^https:\/\/www\.youtube\.com\/embed\/dQw4w9WgXcQ\?/);
  });
});

describe('helps page', () => {
  const serve = () =>
    fakeServer((call) => {
      if (call.url.startsWith('/companies/listPlan/')) return planReply();
      if (call.url === '/helps/list')
        return {
          data: [
            { id: 1, title: 'Getting started', description: 'First steps', video: 'https://youtu.be/dQw4w9WgXcQ' },
            { id: 2, title: 'Queues', description: '', video: 'abcdefghijk' },
            { id: 3, title: 'No video yet', description: 'Soon', video: '' },
          ],
        };
      return { data: [] };
    });

  it('shows a grid of video cards with thumbnails', async () => {
    serve();
    signIn({ profile: 'user' });
    renderApp('/helps');
    const first = await screen.findByTestId('help-card-1');
    expect(first.textContent).toContain('Getting started');
    expect(first.textContent).toContain('First steps');
    expect(first.querySelector('img')?.getAttribute('src')).toBe(thumbnailUrl('dQw4w9WgXcQ'));
    expect(screen.getByTestId('help-card-2').querySelector('img')?.getAttribute('src')).toBe(thumbnailUrl('abcdefghijk'));
    expect(screen.getByTestId('help-card-3').querySelector('img')).toBeNull();
  });

  it('opens the video in a modal on click and closes it with Escape', async () => {
    serve();
    signIn({ profile: 'user' });
    renderApp('/helps');
    fireEvent.click(await screen.findByTestId('help-card-1'));
    const modal = await screen.findByTestId('help-video-modal');
    expect(modal.textContent).toContain('Getting started');
    const frame = within(modal).getByTitle('Getting started');
    expect(frame.tagName).toBe('IFRAME');
    expect(frame.getAttribute('src')).toBe(embedUrl('dQw4w9WgXcQ'));

    fireEvent.keyDown(modal, { key: 'Escape', code: 'Escape' });
    await waitFor(() => expect(screen.queryByTestId('help-video-modal')).toBeNull());

    // Focus left on the page behind: Escape still closes it.
    fireEvent.click(screen.getByTestId('help-card-2'));
    await screen.findByTestId('help-video-modal');
    fireEvent.keyDown(document.body, { key: 'Escape', code: 'Escape' });
    await waitFor(() => expect(screen.queryByTestId('help-video-modal')).toBeNull());
  });

  it('a card without a playable video opens nothing', async () => {
    serve();
    signIn({ profile: 'user' });
    renderApp('/helps');
    fireEvent.click(await screen.findByTestId('help-card-3'));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(screen.queryByTestId('help-video-modal')).toBeNull();
  });
});
