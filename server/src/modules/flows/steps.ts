import type { EntityManager } from '@mikro-orm/postgresql';
import { normalizePhrase } from '@atrium/shared';
import { intArray } from '../../db/sql.js';
import { forCompany } from '../../db/tenant.js';
import { STEP_ORDER } from '../../pipeline/steps/order.js';
import type { InboundFacts, InboundStep } from '../../pipeline/steps/step.js';
import type { OrderedStep } from '../../pipeline/steps/index.js';
import type { FlowConversations, FlowStart } from './conversation.js';
import type { FlowTrigger } from './flow.entity.js';

/**
 * The flows' inbound steps (spec 04 sections 11 and 12, with their notes). In order:
 * - "flow start" (STEP_ORDER.flowPhrase): a customer's message on a waiting ticket with no queue and no
 *   person starts the flow of a flow campaign of the receiving connection whose phrase it matches, or else
 *   the connection's welcome flow when it is the first message of the attendance (a new or reopened
 *   ticket). A ticket a flow already holds is left to the next step: an answer is an answer, even when it
 *   happens to be a campaign's phrase.
 * - "running flow" (STEP_ORDER.runningFlow): the answer a held flow waits for.
 * - "no-match flow" (STEP_ORDER.flowNoMatch, after the chatbot): the connection's no-match flow, at most
 *   once per conversation, for a message nothing else answered.
 * A finished flow never starts again by itself: only a new phrase, a new conversation's welcome, or a
 * new conversation's no-match can start one, so there is no restart loop.
 */

interface TicketRow {
  ticket_id: number;
  status: string;
  queue_id: number | null;
  user_id: number | null;
  is_group: boolean;
  whatsapp_id: number | null;
  holder: string | null;
  flow_session: boolean;
  flow_id_welcome: number | null;
  flow_id_not_phrase: number | null;
}

interface CampaignRow {
  id: number;
  whatsapp_id: number;
  flow_id: number;
  phrase_key: string;
  match_type: 'exact' | 'contains';
}

/**
 * Where each message's ticket stands, in one cheap statement for the batch (every customer message
 * passes here): most are ruled out by it (a queue, a person, a flow already holding the conversation).
 */
const ticketRows = async (em: EntityManager, companyId: number, facts: InboundFacts[]): Promise<Map<number, TicketRow>> => {
  const rows = await em.execute<TicketRow[]>(
    `select t.id as ticket_id, t.status, t.queue_id, t.user_id, t.is_group, t.whatsapp_id,
            h.holder, coalesce(h.holder = 'flow' and h.state -> 'runId' is not null, false) as flow_session,
            w.flow_id_welcome, w.flow_id_not_phrase
       from tickets t
       left join conversation_holds h on h.ticket_id = t.id
       left join whatsapps w on w.id = t.whatsapp_id
      where t.id = any(?::int[]) and t.company_id = ?`,
    [intArray([...new Set(facts.map((f) => f.ticketId))]), companyId],
  );
  return new Map(rows.map((r) => [r.ticket_id, r]));
};

/**
 * For the few messages a welcome flow may greet: whether it may (the flow is on and saved, this ticket was
 * not greeted in its current attendance, and this is the customer's first message of that attendance).
 */
const welcomeAllowed = async (em: EntityManager, companyId: number, facts: { f: InboundFacts; flowId: number }[]): Promise<Set<number>> => {
  if (facts.length === 0) return new Set();
  const rows = await em.execute<{ message_id: number }[]>(
    `with f(ticket_id, message_id, flow_id) as (select * from unnest(?::int[], ?::int[], ?::int[]))
     select f.message_id
       from f join tickets t on t.id = f.ticket_id and t.company_id = ?
       join flows fl on fl.id = f.flow_id and fl.active and fl.version > 0
       left join lateral (select tr.created_at from ticket_trackings tr where tr.ticket_id = t.id order by tr.id desc limit 1) cy on true
      where not exists (select 1 from flow_runs r where r.ticket_id = t.id and r.trigger = 'welcome' and r.started_at >= coalesce(cy.created_at, t.created_at))
        and not exists (select 1 from messages m where m.ticket_id = t.id and not m.from_me and m.id < f.message_id
                          and m.created_at >= coalesce(cy.created_at, t.created_at))`,
    [intArray(facts.map((x) => x.f.ticketId)), intArray(facts.map((x) => x.f.messageId)), intArray(facts.map((x) => x.flowId)), companyId],
  );
  return new Set(rows.map((r) => r.message_id));
};

/** For the messages a no-match flow may answer: the flow is on and saved, and never ran on this ticket. */
const noMatchAllowed = async (em: EntityManager, companyId: number, facts: { f: InboundFacts; flowId: number }[]): Promise<Set<number>> => {
  if (facts.length === 0) return new Set();
  const rows = await em.execute<{ ticket_id: number }[]>(
    `with f(ticket_id, flow_id) as (select * from unnest(?::int[], ?::int[]))
     select f.ticket_id
       from f join flows fl on fl.id = f.flow_id and fl.active and fl.version > 0 and fl.company_id = ?
      where not exists (select 1 from flow_runs r where r.ticket_id = f.ticket_id and r.trigger = 'noMatch')`,
    [intArray(facts.map((x) => x.f.ticketId)), intArray(facts.map((x) => x.flowId)), companyId],
  );
  return new Set(rows.map((r) => r.ticket_id));
};

/** A waiting ticket without queue or person, not a group's, that nothing else automates. */
const free = (row: TicketRow | undefined): row is TicketRow =>
  !!row &&
  row.status === 'pending' &&
  row.queue_id === null &&
  row.user_id === null &&
  !row.is_group &&
  row.whatsapp_id !== null &&
  !row.flow_session &&
  (row.holder === null || row.holder === 'chatbot' || row.holder === 'flow');

/** The campaign whose phrase the message matches: an exact phrase first, then the longest one it contains. */
export const matchCampaign = <C extends Pick<CampaignRow, 'id' | 'phrase_key' | 'match_type'>>(campaigns: C[], body: string): C | undefined => {
  const said = normalizePhrase(body);
  if (!said) return undefined;
  const exact = campaigns.filter((c) => c.phrase_key === said).sort((a, b) => a.id - b.id)[0];
  if (exact) return exact;
  return campaigns
    .filter((c) => c.match_type === 'contains' && c.phrase_key && ` ${said} `.includes(` ${c.phrase_key} `))
    .sort((a, b) => b.phrase_key.length - a.phrase_key.length || a.id - b.id)[0];
};

const customers = (batch: InboundFacts[]) => batch.filter((f) => !f.fromMe && !f.isGroup && !f.ratingReply);

/** Per company of the batch, with its bound manager. */
const byCompany = async <T>(systemEm: () => EntityManager, facts: InboundFacts[], each: (em: EntityManager, companyId: number, facts: InboundFacts[]) => Promise<T[]>) => {
  const out: T[] = [];
  for (const companyId of new Set(facts.map((f) => f.companyId))) {
    out.push(...(await each(forCompany(systemEm(), companyId), companyId, facts.filter((f) => f.companyId === companyId))));
  }
  return out;
};

export const flowSteps = (engine: FlowConversations, systemEm: () => EntityManager): OrderedStep[] => {
  // What `candidates` decided for a message, for `run` (the facts objects are the batch's own).
  const starts = new WeakMap<InboundFacts, FlowStart>();
  /**
   * Where each message's ticket stood when "flow start" read it, for "running flow", which runs right after
   * it on the same batch: whether a flow holds the ticket is in that row already, so the common message (an
   * answer to a running flow) costs one read of the batch instead of two. A message "flow start" claimed is
   * not offered to the next step; one it left alone changed nothing of its ticket (a batch never holds two
   * messages of one chat), and a hold that changes meanwhile is found by the run, under the ticket's lock.
   */
  const seen = new WeakMap<InboundFacts, TicketRow | null>();

  const start: InboundStep = {
    name: 'flow start',
    candidates: (batch) =>
      byCompany(systemEm, customers(batch), async (em, companyId, facts) => {
        const tickets = await ticketRows(em, companyId, facts);
        for (const f of facts) seen.set(f, tickets.get(f.ticketId) ?? null);
        const open = facts.filter((f) => free(tickets.get(f.ticketId)));
        if (open.length === 0) return [];
        const connections = [...new Set(open.map((f) => f.whatsappId))];
        const campaigns = await em.execute<CampaignRow[]>(
          `select c.id, c.whatsapp_id, c.flow_id, c.phrase_key, c.match_type
             from flow_campaigns c join flows f on f.id = c.flow_id
            where c.company_id = ? and c.whatsapp_id = any(?::int[]) and c.status and f.active and f.version > 0`,
          [companyId, intArray(connections)],
        );
        const wanted: InboundFacts[] = [];
        const greet: { f: InboundFacts; flowId: number }[] = [];
        for (const f of open) {
          const row = tickets.get(f.ticketId)!;
          const campaign = matchCampaign(
            campaigns.filter((c) => c.whatsapp_id === row.whatsapp_id),
            f.body ?? '',
          );
          if (campaign) {
            starts.set(f, { flowId: campaign.flow_id, trigger: 'phrase', campaignId: campaign.id });
            wanted.push(f);
          } else if (row.flow_id_welcome) greet.push({ f, flowId: row.flow_id_welcome });
        }
        const welcomed = await welcomeAllowed(em, companyId, greet);
        for (const { f, flowId } of greet) {
          if (!welcomed.has(f.messageId)) continue;
          starts.set(f, { flowId, trigger: 'welcome' });
          wanted.push(f);
        }
        // In the batch's order.
        return facts.filter((f) => wanted.includes(f));
      }),
    run: (facts) => {
      const decided = starts.get(facts);
      return decided ? engine.start(facts, decided) : Promise.resolve(false);
    },
  };

  const running: InboundStep = {
    name: 'running flow',
    candidates: (batch) =>
      byCompany(systemEm, batch.filter((f) => !f.fromMe && !f.ratingReply), async (em, companyId, facts) => {
        if (facts.every((f) => seen.has(f))) return facts.filter((f) => seen.get(f)?.holder === 'flow');
        const rows = await em.execute<{ ticket_id: number }[]>(
          `select ticket_id from conversation_holds where company_id = ? and ticket_id = any(?::int[]) and holder = 'flow'`,
          [companyId, intArray(facts.map((f) => f.ticketId))],
        );
        const held = new Set(rows.map((r) => r.ticket_id));
        return facts.filter((f) => held.has(f.ticketId));
      }),
    run: (facts) => engine.onMessage(facts),
    resume: (facts, data) => engine.resume(facts, data),
    // A Typebot or OpenAI node's call, after commit (the engine defers it through the step's tasks).
    work: (facts, data) => engine.work(facts, data),
  };
  engine.resumeStep = running;

  const noMatch: InboundStep = {
    name: 'no-match flow',
    candidates: (batch) =>
      byCompany(systemEm, customers(batch), async (em, companyId, facts) => {
        const tickets = await ticketRows(em, companyId, facts);
        const eligible = facts.flatMap((f) => {
          const row = tickets.get(f.ticketId);
          return free(row) && row.flow_id_not_phrase ? [{ f, flowId: row.flow_id_not_phrase }] : [];
        });
        const allowed = await noMatchAllowed(em, companyId, eligible);
        // One start per ticket, even when the batch holds several of its messages.
        const taken = new Set<number>();
        return eligible
          .filter(({ f }) => allowed.has(f.ticketId) && !taken.has(f.ticketId) && taken.add(f.ticketId))
          .map(({ f, flowId }) => {
            starts.set(f, { flowId, trigger: 'noMatch' satisfies FlowTrigger });
            return f;
          });
      }),
    run: (facts) => {
      const decided = starts.get(facts);
      return decided ? engine.start(facts, decided) : Promise.resolve(false);
    },
  };

  return [
    { order: STEP_ORDER.flowPhrase, step: start },
    { order: STEP_ORDER.runningFlow, step: running },
    { order: STEP_ORDER.flowNoMatch, step: noMatch },
  ];
};
