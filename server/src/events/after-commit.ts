import type { AsyncLocalStorage } from 'node:async_hooks';
import { TransactionContext, type EventSubscriber, type TransactionEventArgs } from '@mikro-orm/core';

/**
 * Work that must wait for the surrounding database transaction to commit: domain events (a realtime push, a
 * sender kicked, a listener's own writes) raised inside a transaction are delivered when it commits, and
 * dropped when it rolls back, so nobody hears of a change that never happened or reads a row not yet
 * visible. Outside a transaction the work runs at once.
 *
 * The transaction is found through MikroORM's transaction context (an AsyncLocalStorage that
 * `em.transactional` sets up), so callers need not pass an entity manager around. A savepoint (a nested
 * `transactional`) defers to its outermost transaction: only the real COMMIT makes the change visible.
 */
type Pending = (() => void)[];

const queues = new WeakMap<object, Pending>();

// MikroORM keeps the transaction context in this AsyncLocalStorage (typed private, used here to leave it).
const transactionStorage = (TransactionContext as unknown as { storage: AsyncLocalStorage<unknown> }).storage;

/** The outermost transaction of a (possibly nested) knex transaction object. */
const rootOf = (trx: object): object => {
  let current = trx;
  for (;;) {
    const parentKey = Object.getOwnPropertySymbols(current).find((s) => s.description === 'parentTransaction');
    const parent = parentKey ? (current as Record<symbol, unknown>)[parentKey] : undefined;
    // A knex transaction is a function object.
    if (!parent || (typeof parent !== 'object' && typeof parent !== 'function')) return current;
    current = parent as object;
  }
};

/** The transaction the caller runs in, if any. */
const currentTransaction = (): object | undefined => {
  const em = TransactionContext.currentTransactionContext()?.em;
  const trx = em?.isInTransaction() ? (em.getTransactionContext() as object | undefined) : undefined;
  return trx ? rootOf(trx) : undefined;
};

/** Runs `work` once the caller's transaction commits (never if it rolls back), or now outside one. */
export const afterCommit = (work: () => void): void => {
  const trx = currentTransaction();
  if (!trx) return work();
  let pending = queues.get(trx);
  if (!pending) queues.set(trx, (pending = []));
  pending.push(work);
};

/** Whether the caller runs inside a database transaction (for assertions: no network I/O in one). */
export const inTransaction = (): boolean => currentTransaction() !== undefined;

/** The ORM subscriber that releases or drops the deferred work; registered once in the ORM options. */
export class AfterCommitSubscriber implements EventSubscriber {
  afterTransactionCommit(args: TransactionEventArgs): void {
    const trx = args.transaction as object | undefined;
    if (!trx) return;
    const pending = queues.get(trx);
    queues.delete(trx);
    // Outside the finished transaction's async context: what the work reads or writes (and every async
    // operation it starts) must use a connection of its own, not the transaction that just completed.
    if (pending) transactionStorage.exit(() => pending.forEach((work) => work()));
  }

  afterTransactionRollback(args: TransactionEventArgs): void {
    const trx = args.transaction as object | undefined;
    if (trx) queues.delete(trx);
  }
}
