/**
 * At most `max` starts within any `windowMs` (a sliding window), in the order asked: a caller over the
 * limit waits its turn. The clock is injectable; the wait is a timer, ended early by `signal`.
 */
export class WindowLimit {
  private readonly starts: number[] = [];
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Resolves when the caller may go; rejects when `signal` aborts first. */
  take(signal?: AbortSignal): Promise<void> {
    const turn = this.queue.then(() => this.wait(signal));
    this.queue = turn.catch(() => undefined);
    return turn;
  }

  private async wait(signal?: AbortSignal): Promise<void> {
    for (;;) {
      if (signal?.aborted) throw new Error('aborted');
      const now = this.now();
      while (this.starts.length > 0 && this.starts[0] <= now - this.windowMs) this.starts.shift();
      if (this.starts.length < this.max) {
        this.starts.push(now);
        return;
      }
      await pause(this.starts[0] + this.windowMs - now, signal);
    }
  }
}

const pause = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };
    const onAbort = () => {
      done();
      reject(new Error('aborted'));
    };
    const timer = setTimeout(() => {
      done();
      resolve();
    }, Math.max(0, ms));
    signal?.addEventListener('abort', onAbort, { once: true });
  });
