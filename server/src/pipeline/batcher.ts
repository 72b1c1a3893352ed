/**
 * Coalesces concurrent work into batches, per lane (a connection), without adding latency: an item that
 * arrives while its lane is idle is written at once, alone; items that arrive while a batch is being written
 * wait and go together in the next one. Under load batches grow by themselves, so one statement carries many
 * messages; at rest each message is written the moment it arrives.
 *
 * Two stages per lane, each one batch at a time and in arrival order: `write` (storing), then `after` (what
 * follows a stored message: automation). The next batch's write runs while the previous batch's `after` is
 * still going, so a slow chatbot reply does not hold up storing messages.
 *
 * Items carry keys (a chat's identities); a batch never holds two items with a key in common, and an item
 * waits behind any earlier waiting item sharing a key with it, so one chat's messages keep their order.
 */
export type Settled<V> = { ok: true; value: V } | { ok: false; error: unknown };

export interface BatchStages<T, S, R> {
  /** Writes one batch; answers each item's result, in order. A throw fails the whole batch. */
  write(lane: number, items: T[]): Promise<Settled<S>[]>;
  /** Runs after the batch's write, once the previous batch's `after` ended; answers each written item's result. */
  after(lane: number, written: S[]): Promise<Settled<R>[]>;
}

interface Entry<T, R> {
  item: T;
  keys: string[];
  resolve: (value: R) => void;
  reject: (error: unknown) => void;
}

interface Lane<T, R> {
  waiting: Entry<T, R>[];
  writing: boolean;
  /** The end of the last batch's `after` stage: the next one starts behind it. */
  afterDone: Promise<void>;
}

/** A stage's answers, or the same failure for each of its items when the stage throws. */
const settled = async <V>(count: number, stage: () => Promise<Settled<V>[]>): Promise<Settled<V>[]> => {
  try {
    return await stage();
  } catch (error) {
    return Array.from({ length: count }, () => ({ ok: false, error }));
  }
};

const missing = (): Settled<never> => ({ ok: false, error: new Error('the stage answered fewer results than items') });

export class Batcher<T, S, R> {
  // One lane per connection, kept: there are few, and a lane dropped while its `after` runs would lose the order.
  private readonly lanes = new Map<number, Lane<T, R>>();

  constructor(
    private readonly stages: BatchStages<T, S, R>,
    private readonly maxBatch = 64,
  ) {}

  submit(lane: number, item: T, keys: string[]): Promise<R> {
    let state = this.lanes.get(lane);
    if (!state) {
      state = { waiting: [], writing: false, afterDone: Promise.resolve() };
      this.lanes.set(lane, state);
    }
    const promise = new Promise<R>((resolve, reject) => state.waiting.push({ item, keys, resolve, reject }));
    if (!state.writing) void this.drain(lane, state);
    return promise;
  }

  private async drain(lane: number, state: Lane<T, R>): Promise<void> {
    state.writing = true;
    try {
      while (state.waiting.length > 0) {
        const batch = this.take(state);
        const written = await settled(batch.length, () =>
          this.stages.write(
            lane,
            batch.map((e) => e.item),
          ),
        );
        state.afterDone = state.afterDone.then(() => this.finish(lane, batch, written));
      }
    } finally {
      state.writing = false;
    }
  }

  /** The next batch: waiting items in order, skipping any that shares a key with an earlier waiting item. */
  private take(state: Lane<T, R>): Entry<T, R>[] {
    const batch: Entry<T, R>[] = [];
    const rest: Entry<T, R>[] = [];
    const seen = new Set<string>();
    for (const entry of state.waiting) {
      const free = batch.length < this.maxBatch && entry.keys.every((k) => !seen.has(k));
      (free ? batch : rest).push(entry);
      // A skipped item's keys stay taken too: a later message of that chat must not overtake it.
      for (const k of entry.keys) seen.add(k);
    }
    state.waiting = rest;
    return batch;
  }

  private async finish(lane: number, batch: Entry<T, R>[], written: Settled<S>[]): Promise<void> {
    const stored: { entry: Entry<T, R>; value: S }[] = [];
    batch.forEach((entry, i) => {
      const result = written[i] ?? missing();
      if (result.ok) stored.push({ entry, value: result.value });
      else entry.reject(result.error);
    });
    if (stored.length === 0) return;
    const results = await settled(stored.length, () =>
      this.stages.after(
        lane,
        stored.map((s) => s.value),
      ),
    );
    stored.forEach(({ entry }, i) => {
      const result = results[i] ?? missing();
      if (result.ok) entry.resolve(result.value);
      else entry.reject(result.error);
    });
  }
}
