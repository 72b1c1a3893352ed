import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { AudioPlayer } from './audio-player';

/** The element's duration and position as the browser would report them. */
const media = (el: HTMLElement, state: { duration: number; currentTime: number }) => {
  Object.defineProperty(el, 'duration', { configurable: true, get: () => state.duration });
  Object.defineProperty(el, 'currentTime', {
    configurable: true,
    get: () => state.currentTime,
    set: (v: number) => {
      state.currentTime = v;
    },
  });
  return state;
};

describe('audio messages', () => {
  it("read the file's header before playing, so the length shows at once", () => {
    render(<AudioPlayer src="/media/1/voice.ogg" testId="audio" />);
    const audio = screen.getByTestId('audio') as HTMLAudioElement;
    expect(audio.getAttribute('preload')).toBe('metadata');
    expect(audio.hasAttribute('controls')).toBe(true);
  });

  it('a recording without a length in its header is read to its end once, then rewound', () => {
    render(<AudioPlayer src="/media/1/audio.webm" testId="audio" />);
    const audio = screen.getByTestId('audio');
    const state = media(audio, { duration: Infinity, currentTime: 0 });
    fireEvent.loadedMetadata(audio);
    expect(state.currentTime).toBeGreaterThan(1e9);
    state.duration = 7.4;
    fireEvent.durationChange(audio);
    expect(state.currentTime).toBe(0);
    // Later duration changes (while playing) leave the position alone.
    state.currentTime = 3;
    fireEvent.durationChange(audio);
    expect(state.currentTime).toBe(3);
  });

  it('a file with its length in the header is left where it is', () => {
    render(<AudioPlayer src="/media/1/voice.ogg" testId="audio" />);
    const audio = screen.getByTestId('audio');
    const state = media(audio, { duration: 12, currentTime: 0 });
    fireEvent.loadedMetadata(audio);
    fireEvent.durationChange(audio);
    expect(state.currentTime).toBe(0);
  });
});
