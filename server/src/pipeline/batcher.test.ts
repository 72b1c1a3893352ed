import { describe, expect, it } from 'vitest';
import { Batcher, type BatchStages, type Settled } from './batcher.js';

/** A promise the test resolves by hand, to hold a stage open while more items arrive. */
const gate = () => {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
};

const ok = <V>(value: V): Settled<V> => ({ ok: true, value });
const tick = () => new Promise((r) => setImmediate(r));

/** Stages that record what they were given; `write` and `after` wait for their gates when set. */
const recorder = () => {
  const writes: string[][] = [];
  const afters: string[][] = [];
  const events: string[] = [];
  let writeGate: Promise<void> | undefined;
  let afterGate: Promise<void> | undefined;
  const stages: BatchStages<string, string, string> = {
    async write(_lane, items) {
      writes.push(items);
      events.push(`write ${items.join(',')}`);
      await writeGate;
      return items.map((i) => (i.startsWith('bad') ? { ok: false, error: new Error(`cannot store ${i}`) } : ok(`${i}+w`)));
    },
    async after(_lane, written) {
      afters.push(written);
      events.push(`after ${written.join(',')}`);
      await afterGate;
      return written.map((w) => ok(`${w}+a`));
    },
  };
  return {
    stages,
    writes,
    afters,
    events,
    holdWrites: (g: Promise<void> | undefined) => (writeGate = g),
    holdAfters: (g: Promise<void> | undefined) => (afterGate = g),
  };
};

describe('Batcher', () => {
  it('writes an item that finds its lane idle at once, alone, and answers after both stages', async () => {
    const r = recorder();
    const batcher = new Batcher(r.stages);
    expect(await batcher.submit(1, 'a', ['chat-a'])).toBe('a+w+a');
    expect(r.writes).toEqual([['a']]);
  });

  it('items arriving while a batch is written go together in the next one', async () => {
    const r = recorder();
    const batcher = new Batcher(r.stages);
    const hold = gate();
    r.holdWrites(hold.promise);
    const first = batcher.submit(1, 'a', ['chat-a']);
    const rest = ['b', 'c', 'd'].map((x) => batcher.submit(1, x, [`chat-${x}`]));
    await tick();
    expect(r.writes).toEqual([['a']]);
    r.holdWrites(undefined);
    hold.open();
    expect(await Promise.all([first, ...rest])).toEqual(['a+w+a', 'b+w+a', 'c+w+a', 'd+w+a']);
    expect(r.writes).toEqual([['a'], ['b', 'c', 'd']]);
  });

  it('never puts two items of one chat in a batch, and a later item of that chat never overtakes an earlier one', async () => {
    const r = recorder();
    const batcher = new Batcher(r.stages);
    const hold = gate();
    r.holdWrites(hold.promise);
    const all = [
      batcher.submit(1, 'a1', ['n:1']),
      batcher.submit(1, 'a2', ['n:1']),
      // The same person seen by number and LID: waits behind a2.
      batcher.submit(1, 'a3', ['n:1', 'l:7']),
      // Only the LID: its chat is a3's, so it waits behind a3 though nothing in the batch has that LID.
      batcher.submit(1, 'x1', ['l:7']),
      batcher.submit(1, 'd1', ['n:4']),
    ];
    await tick();
    r.holdWrites(undefined);
    hold.open();
    await Promise.all(all);
    expect(r.writes).toEqual([['a1'], ['a2', 'd1'], ['a3'], ['x1']]);
  });

  it('keeps batches to the largest size', async () => {
    const r = recorder();
    const batcher = new Batcher(r.stages, 3);
    const hold = gate();
    r.holdWrites(hold.promise);
    const all = ['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((x) => batcher.submit(1, x, [x]));
    await tick();
    r.holdWrites(undefined);
    hold.open();
    await Promise.all(all);
    expect(r.writes.map((w) => w.length)).toEqual([1, 3, 3]);
  });

  it('lanes are independent: a busy lane does not hold up another', async () => {
    const r = recorder();
    const batcher = new Batcher(r.stages);
    const hold = gate();
    r.holdWrites(hold.promise);
    const slow = batcher.submit(1, 'slow', ['x']);
    await tick();
    r.holdWrites(undefined);
    expect(await batcher.submit(2, 'other', ['x'])).toBe('other+w+a');
    hold.open();
    expect(await slow).toBe('slow+w+a');
  });

  it('an item that fails to write rejects alone and skips the after stage; the others go on', async () => {
    const r = recorder();
    const batcher = new Batcher(r.stages);
    const hold = gate();
    r.holdWrites(hold.promise);
    const first = batcher.submit(1, 'a', ['a']);
    const results = Promise.allSettled(['b', 'bad-c', 'd'].map((x) => batcher.submit(1, x, [x])));
    await tick();
    r.holdWrites(undefined);
    hold.open();
    await first;
    const settled = await results;
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((settled[1] as PromiseRejectedResult).reason.message).toBe('cannot store bad-c');
    expect(r.afters).toEqual([['a+w'], ['b+w', 'd+w']]);
  });

  it('a write stage that throws rejects its whole batch, and the lane keeps working', async () => {
    let fail = true;
    const batcher = new Batcher<string, string, string>({
      write: async (_lane, items) => {
        if (fail) throw new Error('database gone');
        return items.map((i) => ok(i));
      },
      after: async (_lane, written) => written.map((w) => ok(w)),
    });
    await expect(batcher.submit(1, 'a', ['a'])).rejects.toThrow('database gone');
    fail = false;
    expect(await batcher.submit(1, 'b', ['b'])).toBe('b');
  });

  it('runs the after stage one batch at a time in order, while the next batch is already being written', async () => {
    const r = recorder();
    const batcher = new Batcher(r.stages);
    const slowBot = gate();
    r.holdAfters(slowBot.promise);
    const first = batcher.submit(1, 'a', ['a']);
    await tick();
    r.holdAfters(undefined);
    const second = batcher.submit(1, 'b', ['b']);
    await tick();
    // b is stored while a's after stage still runs; b's after stage waits for a's.
    expect(r.events).toEqual(['write a', 'after a+w', 'write b']);
    slowBot.open();
    expect(await Promise.all([first, second])).toEqual(['a+w+a', 'b+w+a']);
    expect(r.events).toEqual(['write a', 'after a+w', 'write b', 'after b+w']);
  });
});
