import type { MikroORM } from '@mikro-orm/postgresql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initOrm } from '../db/orm.js';
import { forSystem } from '../db/tenant.js';
import { createLogger } from '../logger.js';
import { createTestDatabase } from '../../testing/helpers.js';
import { inTransaction } from './after-commit.js';
import { EventBus } from './bus.js';

/** Events raised in a transaction reach listeners when it commits, and never when it rolls back. */
describe('events after commit', () => {
  let orm: MikroORM;
  let drop: () => Promise<void>;
  const bus = new EventBus(createLogger('silent'));
  // What the listener heard, in delivery order, each with whether the row was visible to another connection.
  const heard: { id: number; visible: Promise<boolean> }[] = [];

  beforeAll(async () => {
    const db = await createTestDatabase();
    drop = db.drop;
    orm = await initOrm(db.url);
    await orm.em.fork().execute('create table probe (id int primary key)');
    // The listener reads through a connection of its own: what it sees is what is committed.
    bus.on('schedule.deleted', ({ id }) => {
      const visible = forSystem(orm.em)
        .execute('select id from probe where id = ?', [id])
        .then((rows) => rows.length === 1);
      heard.push({ id, visible });
    });
  });
  afterAll(async () => {
    await orm.close(true);
    await drop();
  });

  /** What was heard of `id`, once a later sentinel event (outside any transaction) has been heard. */
  const heardOf = async (id: number) => {
    const sentinel = -id;
    bus.emit('schedule.deleted', { companyId: 1, id: sentinel });
    expect(heard.some((h) => h.id === sentinel)).toBe(true);
    return Promise.all(heard.filter((h) => h.id === id).map(async (h) => ({ id: h.id, visible: await h.visible })));
  };

  it('delivers an event raised in a transaction after the commit, with the row visible', async () => {
    let deliveredInside = false;
    await forSystem(orm.em).transactional(async (em) => {
      expect(inTransaction()).toBe(true);
      await em.execute('insert into probe values (1)');
      bus.emit('schedule.deleted', { companyId: 1, id: 1 });
      // Nothing yet: the transaction has not committed.
      await new Promise((r) => setImmediate(r));
      deliveredInside = heard.some((h) => h.id === 1);
    });
    expect(deliveredInside).toBe(false);
    expect(await heardOf(1)).toEqual([{ id: 1, visible: true }]);
  });

  it('drops the events of a transaction that rolls back', async () => {
    await expect(
      forSystem(orm.em).transactional(async (em) => {
        await em.execute('insert into probe values (2)');
        bus.emit('schedule.deleted', { companyId: 1, id: 2 });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await heardOf(2)).toEqual([]);
  });

  it('holds a savepoint’s events until the outer transaction commits', async () => {
    let afterInner = true;
    await forSystem(orm.em).transactional(async (em) => {
      await em.transactional(async (inner) => {
        await inner.execute('insert into probe values (3)');
        bus.emit('schedule.deleted', { companyId: 1, id: 3 });
      });
      await new Promise((r) => setImmediate(r));
      afterInner = heard.some((h) => h.id === 3);
    });
    expect(afterInner).toBe(false);
    expect(await heardOf(3)).toEqual([{ id: 3, visible: true }]);
  });

  it('delivers at once outside a transaction', async () => {
    expect(inTransaction()).toBe(false);
    await forSystem(orm.em).execute('insert into probe values (4)');
    bus.emit('schedule.deleted', { companyId: 1, id: 4 });
    expect(await heardOf(4)).toEqual([{ id: 4, visible: true }]);
  });
});
