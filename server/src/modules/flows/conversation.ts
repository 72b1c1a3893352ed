import type { EntityManager } from '@mikro-orm/postgresql';
import type { FlowNodeOf } from '@atrium/shared';
import type { IntegrationsConfig } from '../../config.js';
import { forCompany } from '../../db/tenant.js';
import { afterCommit } from '../../events/after-commit.js';
import type { TicketPlacement } from '../../events/bus.js';
import type { Logger } from '../../logger.js';
import type { InboundFacts, InboundStep } from '../../pipeline/steps/step.js';
import type { StepTasks } from '../../pipeline/steps/tasks.js';
import type { StepWaits } from '../../pipeline/steps/waiting.js';
import type { Sealer } from '../../secrets/sealed.js';
import { Company } from '../companies/company.entity.js';
import { Contact } from '../contacts/contact.entity.js';
import { variablesFor } from '../messages/index.js';
import { queueManyOnTicket, queueOnTicket, sendMedia, sendText, type ConversationDeps, type QueueOptions } from '../outbox/index.js';
import { assertPlanFeature } from '../plans/index.js';
import { AiError, flowAiReply, speak } from '../prompts/index.js';
import {
  typebotFailure,
  typebotFlowRest,
  typebotFlowTurn,
  typebotKeyword,
  type Prepared,
  type TypebotFlowState,
  type TypebotLater,
} from '../queue-integrations/index.js';
import { QueueIntegration } from '../queue-integrations/queue-integration.entity.js';
import { Queue } from '../queues/queue.entity.js';
import type { ConversationHold } from '../tickets/conversation-hold.entity.js';
import { findHold, holdConversation, placementOf, releaseHold, withConversation, type TicketActor } from '../tickets/index.js';
import { Ticket } from '../tickets/ticket.entity.js';
import { announce, closeTicket, moveToQueue, transitionDeps } from '../transitions/index.js';
import { FlowRunner, newSession, newWaitId, type AdvanceResult, type FlowInput, type FlowIO, type MediaToSend } from './engine/runner.js';
import { sessionOf, type FlowSession, type FlowWait } from './engine/session.js';
import { Flow, FlowMedia, type FlowTrigger } from './flow.entity.js';
import { FlowGraphs } from './graphs.js';
import { openNodeKey } from './openai-keys.js';
import { aiVoiceOf } from './voices.js';

/**
 * Flows on tickets: the runner (engine/runner.ts) driving a real conversation. Every advance — a flow
 * started, a customer's message, the end of a pause, a "no reply" deadline — is one transaction under the
 * ticket's lock (tickets/holds.ts `withConversation`): the nodes' sends (queued in the outbox, on the
 * ticket's own connection), the queue move, the session (the hold's state), the run's status and its log
 * commit together or not at all. A timer that fires for a wait the session no longer has does nothing.
 */
export interface FlowRuntimeDeps extends ConversationDeps {
  systemEm: () => EntityManager;
  logger: Logger;
  /** Set once the job scheduler exists (read when a wait is planned). */
  waits?: StepWaits;
  /** The pipeline's deferred work: a Typebot or OpenAI node's calls run there, after commit. */
  tasks?: StepTasks;
}

/** What the Typebot and OpenAI nodes need: the key that opens their secrets, timeouts and the address guard. */
export interface FlowClientDeps {
  sealer: Sealer;
  config: IntegrationsConfig;
}

/** What a deferred Typebot or OpenAI call carries (steps/tasks.ts `data`). */
interface FlowWorkData {
  waitId: string;
  /** The first call when the node is reached, or a customer's message to pass on. */
  input: 'handoff-start' | 'handoff-message';
}

type HandoffWait = Extract<FlowWait, { kind: 'handoff' }>;
type ClientTurn =
  | { messages: Prepared[]; state?: Record<string, unknown>; ended: boolean; typingMs: number; later?: TypebotLater | null }
  | { failure: string };

/**
 * What a Typebot node keeps in its hand-off wait: Typebot's session, and the bubbles still to send after a
 * wait action (`later`, due by a planned resume carrying `laterId`; `endAfter`: Typebot was done once they
 * are sent).
 */
type TypebotNodeState = TypebotFlowState & { later?: TypebotLater; laterId?: string; endAfter?: boolean };

/** The highest message id (history "up to now" for a call that follows a pause rather than a message). */
const LAST_ID = 2_147_483_647;

export interface FlowStart {
  flowId: number;
  trigger: FlowTrigger;
  campaignId?: number | null;
}

/** What a resumed wait carries (steps/waiting.ts `data`). */
export interface FlowWaitData {
  waitId: string;
  /** The end of a pause, a "no reply" deadline, or the end of a Typebot wait action (`laterId`). */
  input: 'resume' | 'timeout' | 'typebot-later';
  laterId?: string;
}

/**
 * A company's language and time zone, read at most every 30 s per process: every flow step renders with
 * them, and they change rarely (a change reaches flows within that time).
 */
const COMPANY_TTL_MS = 30_000;
type CompanyCache = Map<number, { at: number; language: string; timezone: string }>;
const companyOf = async (companies: CompanyCache, em: EntityManager, companyId: number) => {
  const hit = companies.get(companyId);
  if (hit && Date.now() - hit.at < COMPANY_TTL_MS) return hit;
  const company = await em.findOneOrFail(Company, companyId, { fields: ['language', 'timezone'] });
  const entry = { at: Date.now(), language: company.language, timezone: company.timezone };
  companies.set(companyId, entry);
  return entry;
};

const typingMs = (text: string) => Math.min(3000, Math.max(800, text.length * 40));

/** A run's effects on one ticket, inside its transaction. */
class TicketIO implements FlowIO {
  moved = false;
  private vars: Record<string, string> | undefined;

  constructor(
    private readonly deps: FlowRuntimeDeps,
    private readonly em: EntityManager,
    private readonly ticket: Ticket,
    company: { language: string; timezone: string },
    contact: Contact,
    private readonly facts: InboundFacts,
    private readonly actor: TicketActor,
    private readonly resumeStep: InboundStep,
    private readonly clients: FlowClientDeps,
  ) {
    this.lang = company.language;
    this.timezone = company.timezone;
    this.contact = contact;
  }

  private readonly timezone: string;
  private readonly contact: Contact;

  /** Read only when a text has a {{...}} (formatting dates costs more than most steps). */
  get baseVars(): Record<string, string> {
    this.vars ??= {
      ...variablesFor({ contactName: this.contact.name, timeZone: this.timezone, protocolSeed: { ticketId: this.ticket.id, createdAt: this.ticket.createdAt } }),
      number: this.contact.number ?? '',
      email: this.contact.email ?? '',
    };
    return this.vars;
  }

  readonly lang: string;

  now() {
    return new Date();
  }

  random() {
    return Math.random();
  }

  /**
   * The texts said since the last other effect, queued together (one statement for all: most advances say
   * two or three things). Nothing leaves before the commit either way; flushed before any other effect
   * (a file, a queue move, a hand-off) so the conversation keeps the nodes' order.
   */
  private pending: QueueOptions[] = [];

  async say(_nodeId: string, text: string, presence?: 'typing') {
    if (!text.trim()) return;
    this.pending.push({ body: text, isSystem: true, presence: presence ? { kind: 'composing', ms: typingMs(text) } : undefined });
  }

  /** Queues what was said and not queued yet; called before the run's other effects and at its end. */
  async flushSends() {
    if (this.pending.length === 0) return;
    const texts = this.pending;
    this.pending = [];
    await queueManyOnTicket(this.deps, this.em, this.ticket, texts);
  }

  async sendMedia(nodeId: string, media: MediaToSend) {
    await this.flushSends();
    const stored = await this.em.findOne(FlowMedia, { fileName: media.fileName });
    if (!stored) {
      this.deps.logger.warn({ ticketId: this.ticket.id, nodeId }, 'flow: a file of the flow is gone; not sent');
      return;
    }
    const voice = media.voiceNote && media.kind === 'audio' && stored.voiceFileName;
    const source = voice ? stored.voiceFileName! : stored.fileName;
    // The conversation gets its own copy: a message's file may be deleted with it, the flow's must stay.
    const data = await this.deps.media.read(this.ticket.companyId, source);
    const copy = await this.deps.media.save(this.ticket.companyId, {
      data,
      mimetype: voice ? 'audio/ogg; codecs=opus' : stored.mimetype,
      filename: voice ? stored.mediaName.replace(/\.[^.]+$/, '') + '.ogg' : stored.mediaName,
    });
    try {
      await queueOnTicket(this.deps, this.em, this.ticket, {
        body: '',
        isSystem: true,
        presence: voice ? { kind: 'recording', ms: 1500 } : undefined,
        media: { fileName: copy.fileName, mediaName: copy.mediaName, mimetype: copy.mimetype, voiceNote: !!voice },
      });
    } catch (err) {
      await this.deps.media.remove(this.ticket.companyId, copy.fileName);
      throw err;
    }
  }

  private waits(): StepWaits {
    if (!this.deps.waits) throw new Error('flows: waits are not set up');
    return this.deps.waits;
  }

  /**
   * The job is planned before the transaction commits, so a crash cannot lose it; if the transaction rolls
   * back instead, the job finds no wait of that id in the session and does nothing.
   */
  async pause(_nodeId: string, until: Date, waitId: string) {
    await this.waits().resumeAt(until, this.resumeStep, this.waitFacts(), { waitId, input: 'resume' } satisfies FlowWaitData);
  }

  async expectReply(_nodeId: string, until: Date, waitId: string) {
    const handle = await this.waits().resumeAt(until, this.resumeStep, this.waitFacts(), { waitId, input: 'timeout' } satisfies FlowWaitData);
    return handle.jobId;
  }

  forgetReply(wait: FlowWait) {
    if (wait.kind !== 'answer' || !wait.jobId) return;
    const jobId = wait.jobId;
    const waits = this.deps.waits;
    const logger = this.deps.logger;
    afterCommit(() => void waits?.cancel({ jobId }).catch((err: unknown) => logger.debug({ err }, 'flow: a deadline could not be cancelled')));
  }

  async toQueue(_nodeId: string, queueId: number) {
    await this.flushSends();
    const queue = await this.em.findOne(Queue, queueId, { fields: ['id'] });
    if (!queue) return false;
    await moveToQueue(this.em, this.ticket, this.actor, queueId);
    this.moved = true;
    return true;
  }

  private tasks(): StepTasks {
    if (!this.deps.tasks) throw new Error('flows: deferred work is not set up');
    return this.deps.tasks;
  }

  /**
   * The first call to Typebot or OpenAI is deferred (FlowConversations.work, after commit): an external
   * call never runs under the ticket's lock nor in the connection's inbound stage.
   */
  async handOff(node: FlowNodeOf<'typebot'> | FlowNodeOf<'openai'>, waitId: string) {
    await this.flushSends();
    if (node.type === 'typebot') {
      const integration = await this.em.findOne(QueueIntegration, { id: node.data.typebotIntegration.id, type: 'typebot' }, { fields: ['id'] });
      if (!integration) return 'unavailable' as const;
    } else if (!openNodeKey(this.clients.sealer, this.ticket.companyId, node)) return 'unavailable' as const;
    await this.tasks().defer(this.em, this.resumeStep, this.facts, { waitId, input: 'handoff-start' } satisfies FlowWorkData);
    return 'started' as const;
  }

  async forward(wait: HandoffWait) {
    await this.flushSends();
    await this.tasks().defer(this.em, this.resumeStep, this.facts, { waitId: wait.id, input: 'handoff-message' } satisfies FlowWorkData);
  }

  /** What a resumed wait needs of the message that set it. */
  private waitFacts(): InboundFacts {
    const f = this.facts;
    return { ...f, body: '', messageId: 0, quotedWid: null, replyId: null, isNewTicket: false, ratingReply: false };
  }
}

/** A flow may work a ticket that is waiting, has no queue and no person, and is not a group's. */
export const flowMayWork = (ticket: Pick<Ticket, 'status' | 'queueId' | 'userId' | 'isGroup' | 'whatsappId'>) =>
  ticket.status === 'pending' && ticket.queueId === null && ticket.userId === null && !ticket.isGroup && ticket.whatsappId !== null;

export class FlowConversations {
  /** The running-flow step: a planned wait resumes through it. Set by the module once it exists. */
  resumeStep!: InboundStep;
  /** This app's caches (a test process may run several apps, each on its own database). */
  private readonly graphs = new FlowGraphs();
  private readonly companies: CompanyCache = new Map();

  constructor(
    private readonly deps: FlowRuntimeDeps,
    private readonly clients: FlowClientDeps,
  ) {}

  private root(companyId: number) {
    return forCompany(this.deps.systemEm(), companyId);
  }

  /** Starts `start.flowId` on the ticket of `facts` (a phrase, the welcome, the no-match flow). */
  async start(facts: InboundFacts, start: FlowStart): Promise<boolean> {
    const done = await withConversation(this.root(facts.companyId), facts.ticketId, async (tx, ticket, hold) => {
      if (!flowMayWork(ticket) || this.busy(hold)) return null;
      const flow = await tx.findOne(Flow, start.flowId);
      if (!flow || !flow.active || flow.version === 0) return null;
      const compiled = await this.graphs.get(tx, flow.id, flow.version);
      if (!compiled) return null;
      return this.advance(tx, ticket, hold, facts, newSession(compiled), { kind: 'start' }, start);
    });
    await this.announceMove(facts, done);
    return !!done;
  }

  /** A customer's message on a ticket a flow holds: the answer it waits for, or nothing (claimed). */
  async onMessage(facts: InboundFacts): Promise<boolean> {
    const done = await withConversation(this.root(facts.companyId), facts.ticketId, async (tx, ticket, hold) => {
      const session = hold?.holder === 'flow' ? sessionOf(hold.state) : null;
      if (!hold || !session) return null;
      const stop = await this.stopReason(tx, ticket, session);
      if (stop) {
        await this.finish(tx, ticket, session, stop.status, stop.detail);
        return null;
      }
      return this.advance(tx, ticket, hold, facts, session, {
        kind: 'message',
        body: facts.body ?? '',
        replyId: facts.replyId,
        hasText: !!(facts.body ?? '').trim(),
      });
    });
    await this.announceMove(facts, done);
    return !!done;
  }

  /** A planned wait's time came: the end of a pause or a "no reply" deadline. */
  async resume(facts: InboundFacts, data: Record<string, unknown>): Promise<void> {
    const wait = data as Partial<FlowWaitData>;
    if (wait.input === 'typebot-later' && typeof wait.waitId === 'string' && typeof wait.laterId === 'string') return this.typebotLater(facts, wait.waitId, wait.laterId);
    if (typeof wait.waitId !== 'string' || (wait.input !== 'resume' && wait.input !== 'timeout')) return;
    const done = await withConversation(this.root(facts.companyId), facts.ticketId, async (tx, ticket, hold) => {
      const session = hold?.holder === 'flow' ? sessionOf(hold.state) : null;
      if (!hold || !session || session.wait?.id !== wait.waitId) return null;
      const stop = await this.stopReason(tx, ticket, session);
      if (stop) {
        await this.finish(tx, ticket, session, stop.status, stop.detail);
        return null;
      }
      return this.advance(tx, ticket, hold, facts, session, { kind: wait.input!, waitId: wait.waitId! } as FlowInput);
    });
    await this.announceMove(facts, done);
  }

  /**
   * A Typebot or OpenAI node's call (deferred by TicketIO.handOff or .forward): made outside the lock, then
   * applied under it only if the flow still waits on that hand-off. What the client says is sent; once it
   * is done (Typebot asks for nothing more, the AI hands back or says nothing) the flow goes on by the
   * node's output; a failure hands the conversation to a person, with the reason in the flow's log.
   */
  async work(facts: InboundFacts, data: Record<string, unknown>): Promise<void> {
    const job = data as Partial<FlowWorkData>;
    if (typeof job.waitId !== 'string' || (job.input !== 'handoff-start' && job.input !== 'handoff-message')) return;
    const em = this.root(facts.companyId);
    const hold = await findHold(em, facts.ticketId);
    const session = hold?.holder === 'flow' ? sessionOf(hold.state) : null;
    const wait = session?.wait;
    if (!session || wait?.kind !== 'handoff' || wait.id !== job.waitId) return;
    const ticket = await em.findOne(Ticket, facts.ticketId);
    if (!ticket || !flowMayWork(ticket)) return;
    const node = (await this.graphs.get(em, session.flowId, session.version))?.nodes.get(wait.node);
    if (!node || (node.type !== 'typebot' && node.type !== 'openai')) return;
    const text = job.input === 'handoff-message' ? (facts.body ?? '').trim() : null;
    // A photo or a sticker says nothing a bot reads: it waits for words.
    if (text === '') return;
    if (node.type === 'typebot' && text !== null) {
      // The integration's finish and restart keywords work in a flow as they do in a queue.
      const integration = await em.findOne(QueueIntegration, { id: node.data.typebotIntegration.id, type: 'typebot' });
      const keyword = integration ? typebotKeyword(integration, text) : null;
      if (integration && keyword) return this.typebotKeyword(facts, job.waitId, keyword, integration);
    }
    const turn = await this.callClient(em, ticket, node, wait, facts, text);

    const done = await withConversation(em, facts.ticketId, async (tx, ticket, hold) => {
      const current = hold?.holder === 'flow' ? sessionOf(hold.state) : null;
      if (!hold || !current || current.wait?.kind !== 'handoff' || current.wait.id !== job.waitId) return null;
      const stop = await this.stopReason(tx, ticket, current);
      if (stop) {
        await this.finish(tx, ticket, current, stop.status, stop.detail);
        return null;
      }
      if ('failure' in turn) {
        this.deps.logger.warn({ ticketId: ticket.id, nodeId: node.id, reason: turn.failure }, `flow: ${node.type} failed; a person takes over`);
        await this.finish(tx, ticket, current, 'handed', `${node.type} failed: ${turn.failure}`);
        return null;
      }
      const presence = turn.typingMs > 0 ? { kind: 'composing' as const, ms: turn.typingMs } : undefined;
      for (const item of turn.messages) {
        if (item.kind === 'text') await sendText(this.deps, tx, ticket, { body: item.body, isSystem: true, render: false, presence });
        else await sendMedia(this.deps, tx, ticket, item.file, { isSystem: true, presence: presence && item.file.voiceNote ? { ...presence, kind: 'recording' } : presence });
      }
      if (turn.later) {
        // Typebot's wait action: the bubbles after it go out when it is over (and the hand-back after them).
        const laterId = newWaitId();
        await this.planLater(facts, job.waitId!, laterId, turn.later.seconds);
        current.wait = { ...current.wait, state: { ...turn.state, later: turn.later, laterId, endAfter: turn.ended } satisfies TypebotNodeState };
        hold.state = current as unknown as Record<string, unknown>;
        await tx.flush();
        return null;
      }
      if (turn.ended) return this.advance(tx, ticket, hold, facts, current, { kind: 'handBack', waitId: job.waitId! });
      current.wait = { ...current.wait, state: turn.state };
      hold.state = current as unknown as Record<string, unknown>;
      await tx.flush();
      return null;
    });
    await this.announceMove(facts, done);
  }

  /** Plans the end of a Typebot wait action (the job finds nothing to do if the conversation moved on). */
  private async planLater(facts: InboundFacts, waitId: string, laterId: string, seconds: number) {
    if (!this.deps.waits) throw new Error('flows: waits are not set up');
    const data: FlowWaitData = { waitId, input: 'typebot-later', laterId };
    await this.deps.waits.resumeAt(new Date(Date.now() + seconds * 1000), this.resumeStep, { ...facts, body: '', messageId: 0, replyId: null, quotedWid: null, isNewTicket: false }, { ...data });
  }

  /** A Typebot wait action is over: the next bubbles go out (files fetched outside the lock), then the next wait or the hand-back. */
  private async typebotLater(facts: InboundFacts, waitId: string, laterId: string): Promise<void> {
    const em = this.root(facts.companyId);
    const hold = await findHold(em, facts.ticketId);
    const session = hold?.holder === 'flow' ? sessionOf(hold.state) : null;
    const wait = session?.wait;
    const state = (wait?.kind === 'handoff' ? wait.state : undefined) as TypebotNodeState | undefined;
    if (!session || wait?.kind !== 'handoff' || wait.id !== waitId || state?.laterId !== laterId || !state.later) return;
    const node = (await this.graphs.get(em, session.flowId, session.version))?.nodes.get(wait.node);
    if (node?.type !== 'typebot') return;
    const integration = await em.findOne(QueueIntegration, { id: node.data.typebotIntegration.id, type: 'typebot' }, { fields: ['typebotDelayMessage'] });
    const http = { timeoutMs: this.clients.config.timeoutMs, allowPrivateNetwork: this.clients.config.allowPrivateNetwork };
    const rest = await typebotFlowRest(http, state.later);

    const done = await withConversation(em, facts.ticketId, async (tx, ticket, hold) => {
      const current = hold?.holder === 'flow' ? sessionOf(hold.state) : null;
      const currentState = (current?.wait?.kind === 'handoff' ? current.wait.state : undefined) as TypebotNodeState | undefined;
      if (!hold || !current || current.wait?.kind !== 'handoff' || current.wait.id !== waitId || currentState?.laterId !== laterId) return null;
      const stop = await this.stopReason(tx, ticket, current);
      if (stop) {
        await this.finish(tx, ticket, current, stop.status, stop.detail);
        return null;
      }
      const typing = integration?.typebotDelayMessage ?? 0;
      const presence = typing > 0 ? { kind: 'composing' as const, ms: typing } : undefined;
      for (const item of rest.messages) {
        if (item.kind === 'text') await sendText(this.deps, tx, ticket, { body: item.body, isSystem: true, render: false, presence });
        else await sendMedia(this.deps, tx, ticket, item.file, { isSystem: true, presence });
      }
      const { later: _later, laterId: _laterId, endAfter, ...typebotState } = currentState;
      if (rest.later) {
        const next = newWaitId();
        await this.planLater(facts, waitId, next, rest.later.seconds);
        current.wait = { ...current.wait, state: { ...typebotState, later: rest.later, laterId: next, endAfter } satisfies TypebotNodeState };
      } else {
        if (rest.command || endAfter) return this.advance(tx, ticket, hold, facts, current, { kind: 'handBack', waitId });
        current.wait = { ...current.wait, state: typebotState };
      }
      hold.state = current as unknown as Record<string, unknown>;
      await tx.flush();
      return null;
    });
    await this.announceMove(facts, done);
  }

  /**
   * The customer said the Typebot integration's finish keyword (the conversation is closed, as in a queue;
   * the flow ends) or its restart keyword (Typebot starts over at the next message, after the integration's
   * restart text).
   */
  private async typebotKeyword(facts: InboundFacts, waitId: string, keyword: 'finish' | 'restart', integration: QueueIntegration): Promise<void> {
    await withConversation(this.root(facts.companyId), facts.ticketId, async (tx, ticket, hold) => {
      const current = hold?.holder === 'flow' ? sessionOf(hold.state) : null;
      if (!hold || !current || current.wait?.kind !== 'handoff' || current.wait.id !== waitId) return;
      const stop = await this.stopReason(tx, ticket, current);
      if (stop) return this.finish(tx, ticket, current, stop.status, stop.detail);
      if (keyword === 'finish') {
        await this.finish(tx, ticket, current, 'done', 'Typebot finish keyword');
        await closeTicket(transitionDeps(this.deps), tx, ticket, { kind: 'flow', flowId: current.flowId });
        await tx.flush();
        return;
      }
      if (integration.typebotRestartMessage) {
        const ms = integration.typebotDelayMessage;
        await sendText(this.deps, tx, ticket, { body: integration.typebotRestartMessage, isSystem: true, render: false, presence: ms > 0 ? { kind: 'composing', ms } : undefined });
      }
      current.wait = { ...current.wait, state: {} };
      hold.state = current as unknown as Record<string, unknown>;
      await insertSteps(tx, ticket, current.runId, [{ nodeId: current.wait.node, nodeType: 'typebot', outcome: 'restart', detail: 'Typebot restart keyword' }]);
      await tx.flush();
    });
  }

  /** One call to the node's client; never throws (a failure is answered, reduced to a code). */
  private async callClient(
    em: EntityManager,
    ticket: Ticket,
    node: FlowNodeOf<'typebot'> | FlowNodeOf<'openai'>,
    wait: HandoffWait,
    facts: InboundFacts,
    text: string | null,
  ): Promise<ClientTurn> {
    // A plan that lost the flag since the flow was saved stops its AI and Typebot nodes too.
    const feature = node.type === 'typebot' ? 'useIntegrations' : 'useOpenAi';
    const allowed = await assertPlanFeature(em, ticket.companyId, feature).then(
      () => true,
      () => false,
    );
    if (!allowed) return { failure: 'ERR_PLAN_FEATURE_DISABLED' };
    try {
      if (node.type === 'typebot') {
        const integration = await em.findOne(QueueIntegration, { id: node.data.typebotIntegration.id, type: 'typebot' });
        if (!integration) return { failure: 'the integration is gone' };
        const contact = await em.findOneOrFail(Contact, ticket.contactId, { fields: ['name', 'number'] });
        const { later: _later, laterId: _laterId, endAfter: _endAfter, ...kept } = (wait.state ?? {}) as TypebotNodeState;
        const turn = await typebotFlowTurn(
          { timeoutMs: this.clients.config.timeoutMs, allowPrivateNetwork: this.clients.config.allowPrivateNetwork },
          integration,
          kept,
          { text, prefilled: { number: contact.number ?? '', pushName: contact.name, name: contact.name, ticketId: ticket.id } },
        );
        return { messages: turn.messages, state: { ...turn.state }, ended: turn.ended, typingMs: integration.typebotDelayMessage, later: turn.later };
      }
      const apiKey = openNodeKey(this.clients.sealer, ticket.companyId, node);
      if (!apiKey) return { failure: 'no API key' };
      const settings = node.data.typebotIntegration;
      const reply = await flowAiReply(
        em,
        ticket,
        { apiKey, prompt: settings.prompt, model: settings.model, maxTokens: settings.maxTokens, temperature: settings.temperature, maxMessages: settings.maxMessages },
        facts.messageId || LAST_ID,
        this.clients.config.aiTimeoutMs,
      );
      return {
        messages: reply.text ? [await this.spoken(apiKey, settings.voice, reply.text, ticket.id)] : [],
        // Asked for a person, or nothing to say: the flow takes the conversation back.
        ended: reply.handoff || !reply.text,
        typingMs: Math.min(2000, Math.max(500, reply.text.length * 15)),
      };
    } catch (err) {
      return { failure: node.type === 'typebot' ? typebotFailure(err) : err instanceof AiError ? err.code : 'error' };
    }
  }

  /**
   * The AI's answer as the node says to send it: the text, or with a voice chosen, a voice note spoken by
   * the provider's text-to-speech (with the node's key). A voice that cannot be had sends the text.
   */
  private async spoken(apiKey: string, voice: string | undefined, text: string, ticketId: number): Promise<Prepared> {
    const speaker = aiVoiceOf(voice);
    if (!speaker) return { kind: 'text', body: text };
    try {
      const data = await speak(apiKey, { text, voice: speaker }, this.clients.config.aiTimeoutMs);
      return { kind: 'file', file: { data, mimetype: 'audio/ogg; codecs=opus', filename: 'resposta.ogg', voiceNote: true } };
    } catch (err) {
      this.deps.logger.warn({ ticketId, reason: err instanceof AiError ? err.code : 'error' }, 'flow: the answer could not be spoken; sent as text');
      return { kind: 'text', body: text };
    }
  }

  /** Another automation (an integration, a prompt) works the conversation; a flow does not take it over. */
  private busy(hold: ConversationHold | null): boolean {
    if (!hold) return false;
    if (hold.holder === 'flow') return sessionOf(hold.state) !== null;
    return hold.holder !== 'chatbot';
  }

  /** Why a held session must stop before it goes on: a person or a queue took the ticket, the flow was switched off. */
  private async stopReason(tx: EntityManager, ticket: Ticket, session: FlowSession): Promise<{ status: 'handed' | 'expired'; detail: string } | null> {
    if (!flowMayWork(ticket)) return { status: 'handed', detail: 'the ticket was taken or moved' };
    const active = await flowSwitchAndContact(tx, ticket, session.flowId);
    if (active === null) return { status: 'expired', detail: 'the flow was deleted' };
    if (!active) return { status: 'expired', detail: 'the flow was switched off' };
    return null;
  }

  /** Ends a held session without running it. */
  private async finish(tx: EntityManager, ticket: Ticket, session: FlowSession, status: 'done' | 'handed' | 'expired', detail: string) {
    await releaseHold(tx, ticket);
    if (session.runId) {
      await tx.execute(`update flow_runs set status = ?, ended_at = now() where id = ?`, [status, session.runId]);
      await insertSteps(tx, ticket, session.runId, [{ nodeId: session.node, nodeType: 'flow', outcome: status, detail }]);
    }
    await tx.flush();
  }

  private async advance(
    tx: EntityManager,
    ticket: Ticket,
    hold: ConversationHold | null,
    facts: InboundFacts,
    session: FlowSession,
    input: FlowInput,
    start?: FlowStart,
  ): Promise<{ ticket: Ticket; before: TicketPlacement; moved: boolean; actor: TicketActor } | null> {
    const compiled = await this.graphs.get(tx, session.flowId, session.version);
    if (!compiled) {
      await this.finish(tx, ticket, session, 'expired', 'the flow version is gone');
      return null;
    }
    const company = await companyOf(this.companies, tx, ticket.companyId);
    const contact = await tx.findOneOrFail(Contact, ticket.contactId);
    const actor: TicketActor = { kind: 'flow', flowId: session.flowId };
    const before = placementOf(ticket);
    const io = new TicketIO(this.deps, tx, ticket, company, contact, facts, actor, this.resumeStep, this.clients);
    const result = await new FlowRunner(compiled, io).advance(session, input);
    if (!result.applied) return null;
    await io.flushSends();
    await this.persist(tx, ticket, hold, result, start);
    return { ticket, before, moved: io.moved, actor };
  }

  /** The run's row and log, and the session in the hold (or the hold let go when the run ended). */
  private async persist(tx: EntityManager, ticket: Ticket, hold: ConversationHold | null, result: AdvanceResult, start?: FlowStart) {
    const { session, status } = result;
    const ended = status !== 'waiting';
    if (start) {
      const [row] = await tx.execute<{ id: number }[]>(
        `insert into flow_runs (company_id, ticket_id, flow_id, version, trigger, campaign_id, status, started_at, ended_at)
         values (?, ?, ?, ?, ?, ?, ?, now(), ${ended ? 'now()' : 'null'}) returning id`,
        [ticket.companyId, ticket.id, session.flowId, session.version, start.trigger, start.campaignId ?? null, status],
      );
      session.runId = row.id;
    } else if (ended) {
      await tx.execute(`update flow_runs set status = ?, ended_at = now() where id = ?`, [status, session.runId]);
    }
    if (!ended) {
      if (hold?.holder === 'flow' && !start) {
        hold.state = session as unknown as Record<string, unknown>;
        hold.active = true;
      } else {
        await holdConversation(tx, ticket, { kind: 'flow', flowId: session.flowId }, {
          holder: 'flow',
          holderId: session.flowId,
          state: session as unknown as Record<string, unknown>,
        });
      }
    } else if (hold?.holder === 'flow') {
      await releaseHold(tx, ticket);
    }
    await insertSteps(tx, ticket, session.runId, result.steps);
    await tx.flush();
  }

  private async announceMove(facts: InboundFacts, done: { ticket: Ticket; before: TicketPlacement; moved: boolean; actor: TicketActor } | null | undefined) {
    if (!done?.moved) return;
    const em = this.root(facts.companyId);
    const fresh = await em.findOne(Ticket, done.ticket.id);
    if (fresh) await announce(this.deps, em, fresh, done.before, done.actor);
  }
}

/**
 * Whether the flow is on (null: deleted), read with the ticket's contact in one statement: neither is guarded
 * by the ticket's lock, and every answer to a running flow needs both. The contact joins the transaction's
 * entities, so the run finds it there without another statement.
 */
const flowSwitchAndContact = async (tx: EntityManager, ticket: Ticket, flowId: number): Promise<boolean | null> => {
  const [row] = await tx.execute<{ active: boolean | null; contact: Record<string, unknown> | null }[]>(
    `select (select f.active from flows f where f.id = ? and f.company_id = ?) as active,
            (select to_jsonb(c) from contacts c where c.id = ? and c.company_id = ?) as contact`,
    [flowId, ticket.companyId, ticket.contactId, ticket.companyId],
  );
  if (row.contact) tx.map(Contact, row.contact);
  return row.active;
};

/** The run's log lines, in one statement. */
const insertSteps = async (tx: EntityManager, ticket: Ticket, runId: number, steps: AdvanceResult['steps']) => {
  if (steps.length === 0 || !runId) return;
  const values = steps.map(() => `(?, ?, ?, ?, ?, ?, ?, clock_timestamp())`).join(', ');
  await tx.execute(
    `insert into flow_steps (company_id, run_id, ticket_id, node_id, node_type, outcome, detail, created_at) values ${values}`,
    steps.flatMap((s) => [ticket.companyId, runId, ticket.id, s.nodeId, s.nodeType, s.outcome.slice(0, 40), s.detail]),
  );
};

