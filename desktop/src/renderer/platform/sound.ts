/**
 * The notification sound, played at the stored volume. A short two-tone chime made with Web Audio,
 * so no audio file has to ship or load.
 */
let context: AudioContext | undefined;

const audioContext = (): AudioContext | undefined => {
  if (context) return context;
  const Ctor = (globalThis as { AudioContext?: typeof AudioContext }).AudioContext;
  if (!Ctor) return undefined;
  context = new Ctor();
  return context;
};

/**
 * Browsers start audio suspended until the page gets a user gesture: without this the first chime after
 * a reload (a ticket arriving before any click) is silent. The first click, tap or key press creates
 * and resumes the context, so that later chimes play even while the user is elsewhere.
 */
export const unlockSoundOnFirstGesture = (target: Pick<EventTarget, 'addEventListener' | 'removeEventListener'> = window): void => {
  const events = ['pointerdown', 'keydown', 'touchstart'] as const;
  const unlock = () => {
    events.forEach((name) => target.removeEventListener(name, unlock, true));
    const ctx = audioContext();
    if (ctx?.state === 'suspended') void ctx.resume().catch(() => undefined);
  };
  events.forEach((name) => target.addEventListener(name, unlock, true));
};

export const playNotificationSound = (volume: number): void => {
  if (volume <= 0) return;
  const ctx = audioContext();
  if (!ctx) return;
  try {
    if (ctx.state === 'suspended') void ctx.resume();
    const now = ctx.currentTime;
    const gain = ctx.createGain();
    gain.connect(ctx.destination);
    gain.gain.setValueAtTime(0.0001, now);
    gain.gain.exponentialRampToValueAtTime(Math.max(0.0001, 0.4 * volume), now + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + 0.45);
    [880, 1320].forEach((frequency, i) => {
      const osc = ctx.createOscillator();
      osc.type = 'sine';
      osc.frequency.setValueAtTime(frequency, now + i * 0.12);
      osc.connect(gain);
      osc.start(now + i * 0.12);
      osc.stop(now + 0.45);
    });
  } catch {
    // A browser that refuses audio before a user gesture: the notification still shows.
  }
};
