import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { playNotificationSound } from './sound';

/** A Web Audio stand-in recording the gain the chime reaches and the tones it starts. */
const audio = { peaks: [] as number[], started: 0, contexts: 0 };

class FakeAudioContext {
  state = 'running';
  currentTime = 0;
  destination = {};
  constructor() {
    audio.contexts += 1;
  }
  resume() {
    return Promise.resolve();
  }
  createGain() {
    return {
      connect: () => undefined,
      gain: {
        setValueAtTime: () => undefined,
        exponentialRampToValueAtTime: (value: number) => audio.peaks.push(value),
      },
    };
  }
  createOscillator() {
    return {
      type: 'sine',
      frequency: { setValueAtTime: () => undefined },
      connect: () => undefined,
      start: () => {
        audio.started += 1;
      },
      stop: () => undefined,
    };
  }
}

beforeEach(() => {
  Object.assign(audio, { peaks: [], started: 0 });
  vi.stubGlobal('AudioContext', FakeAudioContext);
});
afterEach(() => vi.unstubAllGlobals());

describe('notification sound', () => {
  it('is as loud as the stored volume (0 to 1)', () => {
    playNotificationSound(1);
    const full = Math.max(...audio.peaks);
    audio.peaks = [];
    playNotificationSound(0.3);
    expect(Math.max(...audio.peaks)).toBeCloseTo(full * 0.3, 5);
    expect(audio.started).toBeGreaterThan(0);
  });

  it('is silent at volume 0', () => {
    playNotificationSound(0);
    expect(audio.started).toBe(0);
    expect(audio.peaks).toEqual([]);
  });

  it('reuses one audio context', async () => {
    // A fresh module (no context made by another test, in whatever order they run): two chimes, one context.
    vi.resetModules();
    const fresh = await import('./sound');
    const before = audio.contexts;
    fresh.playNotificationSound(0.5);
    fresh.playNotificationSound(0.5);
    expect(audio.contexts - before).toBe(1);
  });
});

describe('first user gesture', () => {
  it('resumes a suspended audio context once, so that the first chime after a reload is heard', async () => {
    const resumed: string[] = [];
    class Suspended extends FakeAudioContext {
      override state = 'suspended';
      override resume() {
        resumed.push('resume');
        this.state = 'running';
        return Promise.resolve();
      }
    }
    vi.stubGlobal('AudioContext', Suspended);
    // A fresh module: no context made by the tests above.
    vi.resetModules();
    const fresh = await import('./sound');
    const target = new EventTarget();
    fresh.unlockSoundOnFirstGesture(target);
    expect(resumed).toEqual([]);
    target.dispatchEvent(new Event('keydown'));
    expect(resumed).toEqual(['resume']);
    // Listened to once only.
    target.dispatchEvent(new Event('pointerdown'));
    expect(resumed).toEqual(['resume']);
  });
});
