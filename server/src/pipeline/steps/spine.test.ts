import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forCompany, forSystem } from '../../db/tenant.js';
import { connectSandbox, customerSays, ticketOf } from '../../../testing/conversation.js';
import { createTenant, eventually, jobDueNow, startTestApp, type Tenant, type TestApp } from '../../../testing/helpers.js';
import { findHold, holdConversation, SYSTEM, withConversation } from '../../modules/tickets/index.js';
import { inboundSteps, STEP_ORDER } from './index.js';
import type { InboundFacts, InboundStep } from './step.js';
import { StepTasks } from './tasks.js';

/** What the inbound steps stand on (issue 18, "The steps"): their order, deferred work, versions, waits, facts. */
let t: TestApp;
let a: Tenant;
let wa: number;

beforeAll(async () => {
  t = await startTestApp();
  a = await createTenant(t, 'Spine');
  wa = (await connectSandbox(t.api, a.admin.token)).id;
});
afterAll(() => t?.stop());

const sql = <T = any>(query: string, params: unknown[] = []): Promise<T[]> => t.app.orm.em.fork().getConnection().execute(query, params);
const em = () => forCompany(forSystem(t.app.orm.em.fork()), a.companyId);

/** A step added for one test at the front of the pipeline, taken out after. */
const withStep = async (step: InboundStep, body: () => Promise<void>) => {
  t.app.pipeline.steps.unshift(step);
  try {
    await body();
  } finally {
    t.app.pipeline.steps.splice(t.app.pipeline.steps.indexOf(step), 1);
  }
};

const dueNow = (jobId: string) => jobDueNow(t.app, jobId);

/** A ticket of the test's own: the customer `number`, written by no other test, says hello. */
const ownTicket = async (number: string) => {
  await customerSays(t.api, a.admin.token, wa, { from: number, body: 'hello' });
  return eventually(async () => (await ticketOf(t.api, a.admin.token, number)) ?? false);
};

/** Resolves when called as many times as asked. */
const gate = () => {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
};

describe('steps contributed by modules', () => {
  it('run in STEP_ORDER: the rating reply first, the no-match flow last', () => {
    expect(t.app.pipeline.steps.map((s) => s.name)).toEqual(['rating reply', 'flow start', 'running flow', 'queue integration', 'ai prompt', 'queue chatbot', 'no-match flow']);
  });

  it('are sorted by their order, and one name contributed twice is refused', () => {
    const step = (name: string): InboundStep => ({ name, candidates: () => [], run: async () => false });
    const names = inboundSteps(t.app.pipeline, [
      { order: STEP_ORDER.chatbot, step: step('bot') },
      { order: STEP_ORDER.runningFlow, step: step('flow') },
      { order: STEP_ORDER.flowPhrase, step: step('phrase') },
    ]).map((s) => s.name);
    expect(names).toEqual(['rating reply', 'phrase', 'flow', 'bot']);
    expect(() => inboundSteps(t.app.pipeline, [{ order: 1, step: step('x') }, { order: 2, step: step('x') }])).toThrow(/twice/);
  });
});

describe('the facts a step is given', () => {
  it('carry the quoted message id and the id of a tapped button or list row', async () => {
    const seen: InboundFacts[] = [];
    const listening: InboundStep = { name: 'test: facts', candidates: (b) => b.filter((f) => f.body.startsWith('facts')), run: async (f) => seen.push(f) > 0 };
    await withStep(listening, async () => {
      await customerSays(t.api, a.admin.token, wa, { from: '5511933330001', body: 'facts plain', id: 'FACT-1' });
      await customerSays(t.api, a.admin.token, wa, { from: '5511933330001', body: 'facts reply', quotedId: 'FACT-1', replyId: 'option-2' });
    });
    expect(seen.map((f) => [f.body, f.quotedWid, f.replyId])).toEqual([
      ['facts plain', null, null],
      ['facts reply', 'FACT-1', 'option-2'],
    ]);
  });
});

describe('deferred work', () => {
  it('is claimed at once and done after, in order per ticket, side by side across tickets', async () => {
    const log: string[] = [];
    const first = gate();
    const release = gate();
    const slow: InboundStep = {
      name: 'test: slow',
      candidates: (b) => b.filter((f) => f.body.startsWith('slow')),
      run: async (f) => {
        await t.app.pipeline.tasks!.defer(em(), slow, f, { said: f.body });
        return true;
      },
      work: async (f, data) => {
        log.push(`start ${String(data.said)}`);
        if (data.said === 'slow 1') {
          first.open();
          await release.opened;
        }
        log.push(`end ${String(data.said)}`);
      },
    };
    await withStep(slow, async () => {
      // The request returns before the work is done: the inbound stage is not held.
      await customerSays(t.api, a.admin.token, wa, { from: '5511933330002', body: 'slow 1' });
      await customerSays(t.api, a.admin.token, wa, { from: '5511933330002', body: 'slow 2' });
      await first.opened;
      // Another ticket's work runs while the first ticket's is held; the first ticket's second waits its turn.
      await customerSays(t.api, a.admin.token, wa, { from: '5511933330003', body: 'slow 3' });
      await eventually(() => expect(log).toContain('end slow 3'));
      expect(log).not.toContain('start slow 2');
      release.open();
      await eventually(() => expect(log).toContain('end slow 2'));
    });
    expect(log.indexOf('end slow 1')).toBeLessThan(log.indexOf('start slow 2'));
    // Its own tickets' tasks (another test's may still stand in the company), each deleted just after its
    // work returns: read once it has settled, not right after the log line.
    const tickets = [(await ticketOf(t.api, a.admin.token, '5511933330002')).id, (await ticketOf(t.api, a.admin.token, '5511933330003')).id];
    await eventually(async () => expect(await sql(`select count(*)::int as n from step_tasks where ticket_id in (?, ?)`, tickets)).toEqual([{ n: 0 }]));
  });

  it('a failing task is tried again after a backoff, and kept as failed with its error at the end', async () => {
    let calls = 0;
    const flaky: InboundStep = {
      name: 'test: flaky',
      candidates: () => [],
      run: async () => false,
      work: async (f) => {
        calls += 1;
        if (f.body === 'fails once' && calls === 1) throw new Error('the service is down');
        if (f.body === 'always fails') throw new Error('still down');
      },
    };
    const tasks = new StepTasks({ systemEm: () => forSystem(t.app.orm.em.fork()), logger: t.app.logger, steps: () => [flaky], backoffMs: [50, 50] });
    const ticket = await ownTicket('5511933330004');
    const facts = (body: string): InboundFacts => ({ companyId: a.companyId, whatsappId: wa, ticketId: ticket.id, contactId: ticket.contactId, messageId: 0, body, mediaType: 'chat', fromMe: false, isGroup: false, isNewTicket: false, ratingReply: false });
    try {
      await tasks.defer(em(), flaky, facts('fails once'));
      await eventually(() => expect(calls).toBe(2));
      await eventually(async () => expect(await sql(`select count(*)::int as n from step_tasks where ticket_id = ?`, [ticket.id])).toEqual([{ n: 0 }]));
      calls = 0;
      await tasks.defer(em(), flaky, facts('always fails'));
      await eventually(async () =>
        expect(await sql(`select status, attempts, last_error from step_tasks where ticket_id = ?`, [ticket.id])).toEqual([
          { status: 'failed', attempts: 3, last_error: 'still down' },
        ]),
      );
      expect(calls).toBe(3);
    } finally {
      await tasks.stop();
      await sql(`delete from step_tasks where ticket_id = ?`, [ticket.id]);
    }
  });

  it('a task a dead process left running is taken up again by the sweep', async () => {
    const done: string[] = [];
    const step: InboundStep = { name: 'test: orphan', candidates: () => [], run: async () => false, work: async (f) => void done.push(f.body) };
    const tasks = new StepTasks({ systemEm: () => forSystem(t.app.orm.em.fork()), logger: t.app.logger, steps: () => [step] });
    const ticket = await ownTicket('5511933330005');
    const facts = { companyId: a.companyId, whatsappId: wa, ticketId: ticket.id, contactId: ticket.contactId, messageId: 0, body: 'orphan', mediaType: 'chat', fromMe: false, isGroup: false, isNewTicket: false, ratingReply: false };
    await sql(
      `insert into step_tasks (company_id, ticket_id, step, facts, data, status, attempts, run_after, started_at, created_at)
       values (?, ?, 'test: orphan', ?, '{}', 'running', 1, now(), now() - interval '10 minutes', now())`,
      [a.companyId, ticket.id, JSON.stringify(facts)],
    );
    try {
      await tasks.sweep();
      await eventually(() => expect(done).toEqual(['orphan']));
    } finally {
      await tasks.stop();
    }
  });
});

describe('the conversation hold', () => {
  it('has a version: of two continuations planned on one version, exactly one advances it', async () => {
    const ticket = await ownTicket('5511933330006');
    await em().transactional(async (tx) => {
      await holdConversation(tx, ticket, SYSTEM, { holder: 'flow', holderId: 1, state: { node: 'start' } });
    });
    const planned = (await findHold(em(), ticket.id))!.version;
    const advance = (node: string) =>
      withConversation(
        em(),
        ticket.id,
        async (tx, _ticket, hold) => {
          hold!.state = { node };
          await tx.flush();
          return node;
        },
        { expectVersion: planned },
      );
    const results = await Promise.all([advance('a'), advance('b')]);
    expect(results.filter((r) => r !== undefined)).toHaveLength(1);
    const hold = (await findHold(em(), ticket.id))!;
    expect(hold.version).toBe(planned + 1);
    expect(hold.state).toEqual({ node: results.find((r) => r !== undefined) });
  });
});

describe('a wait', () => {
  it('can be cancelled, and one outliving its conversation state does nothing', async () => {
    const resumed: string[] = [];
    const ticket = await ownTicket('5511933330007');
    const waiting: InboundStep = { name: 'test: waits', candidates: () => [], run: async () => false, resume: async (_f, data) => void resumed.push(String(data.label)) };
    const facts: InboundFacts = { companyId: a.companyId, whatsappId: wa, ticketId: ticket.id, contactId: ticket.contactId, messageId: 0, body: '', mediaType: 'chat', fromMe: false, isGroup: false, isNewTicket: false, ratingReply: false };
    await em().transactional((tx) => holdConversation(tx, ticket, SYSTEM, { holder: 'flow', holderId: 2, state: { node: 'question' } }));
    const version = (await findHold(em(), ticket.id))!.version;
    await withStep(waiting, async () => {
      const waits = t.app.pipeline.waits!;
      // Planned an hour ahead, so that none fires on its own: the test makes them due when it is ready. Due
      // 200 ms ahead instead, the stale wait fired before the state change whenever the steps between took
      // longer (a busy runner), and resumed as current.
      const later = new Date(Date.now() + 60 * 60_000);
      const cancelled = await waits.resumeAt(later, waiting, facts, { label: 'cancelled' }, { holdVersion: version });
      const stale = await waits.resumeAt(later, waiting, facts, { label: 'stale' }, { holdVersion: version });
      await waits.cancel(cancelled);
      expect(await t.app.scheduler.agenda.db.getJobById(cancelled.jobId)).toBeNull();
      // The customer answered: the conversation moved on, so the "no reply" wait planned before is stale.
      await withConversation(em(), ticket.id, async (tx, _t, hold) => {
        hold!.state = { node: 'answered' };
        await tx.flush();
      });
      const now = (await findHold(em(), ticket.id))!.version;
      const current = await waits.resumeAt(later, waiting, facts, { label: 'current' }, { holdVersion: now });
      await dueNow(stale.jobId);
      await dueNow(current.jobId);
      await eventually(() => expect(resumed).toContain('current'), 20_000, 100);
      // The stale one ran too (its job completed), and did nothing.
      await eventually(async () => {
        const { jobs } = await t.app.scheduler.agenda.queryJobs({ id: stale.jobId });
        expect(jobs.map((j) => j.state)).toEqual(['completed']);
      }, 20_000, 100);
    });
    expect(resumed).toEqual(['current']);
  });
});
