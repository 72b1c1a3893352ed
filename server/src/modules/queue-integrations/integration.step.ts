import type { EntityManager } from '@mikro-orm/postgresql';
import { forCompany } from '../../db/tenant.js';
import type { InboundFacts, InboundStep } from '../../pipeline/steps/step.js';
import { STEP_ORDER } from '../../pipeline/steps/order.js';
import type { OrderedStep } from '../../pipeline/steps/index.js';
import type { ModuleContext } from '../app-module.js';
import { actorOf, answerOnQueueChoice, automationStep, handToPerson, isAnswering, notesFor, type AutomationTarget } from '../automation/index.js';
import { Contact } from '../contacts/contact.entity.js';
import { Message } from '../messages/message.entity.js';
import { sendMedia, sendText } from '../outbox/index.js';
import { Queue } from '../queues/queue.entity.js';
import type { ConversationHold } from '../tickets/conversation-hold.entity.js';
import { findHold, withConversation } from '../tickets/index.js';
import { Ticket } from '../tickets/ticket.entity.js';
import { closeTicket, placeTicket, transitionDeps } from '../transitions/index.js';
import { User } from '../users/user.entity.js';
import { detectIntent, readServiceAccount } from './dialogflow.js';
import { QueueIntegration, WebhookDelivery } from './queue-integration.entity.js';
import { secretsOf, type IntegrationDeps } from './queue-integrations.service.js';
import { prepare, readCommand, splitAtWait, typebotExpired, typebotFailure, typebotKeyword, typebotOutputs, type Prepared } from './typebot-exchange.js';
import {
  continueChat,
  pickChoice,
  startChat,
  TypebotError,
  TypebotSessionGone,
  waitsAfter,
  type TypebotAnswer,
  type TypebotChoice,
  type TypebotOutput,
} from './typebot.js';
import { postEvent, readWebhookReply } from './webhook.js';

/**
 * Queue integrations at work (spec 04 section 10 with its notes): Typebot, n8n / webhook and Dialogflow ES
 * answer the customers of the queues and connections that name them. The step claims a message at once
 * (automation/step.ts); the external call runs here, after commit, in order per ticket, and what it
 * answers is applied under the ticket's lock only if the integration still holds the conversation. A
 * failure never leaves the customer in silence: the ticket goes to a person with a note saying why.
 */
interface Runtime {
  ctx: ModuleContext;
  deps: IntegrationDeps;
  step: () => InboundStep;
}

/** What the hold keeps while Typebot answers. */
interface TypebotState {
  sessionId?: string;
  /** When the customer's previous message came (expiry is measured from it). */
  lastInboundAt?: string;
  /** The choice input waiting for an answer. */
  choices?: TypebotChoice[] | null;
}

const http = (rt: Runtime) => ({ timeoutMs: rt.deps.config.timeoutMs, allowPrivateNetwork: rt.deps.config.allowPrivateNetwork });

const why = typebotFailure;

const em = (rt: Runtime, companyId: number) => forCompany(rt.ctx.systemEm(), companyId);

/** The ticket and hold, when the integration still answers it (else null: a person or another bot has it). */
const answering = async (db: EntityManager, facts: InboundFacts, target: AutomationTarget) => {
  const ticket = await db.findOne(Ticket, facts.ticketId);
  const hold = await findHold(db, facts.ticketId);
  if (!ticket || ticket.userId !== null || ticket.status === 'closed' || !isAnswering(hold, target)) return null;
  return { ticket, hold };
};

/** Runs `act` under the ticket's lock if the integration still answers (and, with a version, nothing moved). */
const apply = (
  rt: Runtime,
  facts: InboundFacts,
  target: AutomationTarget,
  act: (tx: EntityManager, ticket: Ticket, hold: ConversationHold) => Promise<void>,
  version?: number,
) =>
  withConversation(
    em(rt, facts.companyId),
    facts.ticketId,
    async (tx, ticket, hold) => {
      if (ticket.userId !== null || ticket.status === 'closed' || !isAnswering(hold, target)) return;
      await act(tx, ticket, hold);
      await tx.flush();
    },
    version === undefined ? {} : { expectVersion: version },
  );

const fail = async (rt: Runtime, tx: EntityManager, ticket: Ticket, target: AutomationTarget, integration: QueueIntegration, reason: string) => {
  rt.ctx.logger.warn({ ticketId: ticket.id, integrationId: integration.id, type: integration.type, reason }, 'integration failed; the ticket goes to a person');
  const notes = await notesFor(tx, ticket.companyId);
  await handToPerson(transitionDeps(rt.ctx), tx, ticket, target, { note: notes.integrationFailed(integration.name, reason) });
};

const send = async (rt: Runtime, tx: EntityManager, ticket: Ticket, items: Prepared[], typingMs: number) => {
  const presence = typingMs > 0 ? { kind: 'composing' as const, ms: typingMs } : undefined;
  for (const item of items) {
    if (item.kind === 'text') await sendText(rt.ctx, tx, ticket, { body: item.body, isSystem: true, render: false, presence });
    else await sendMedia(rt.ctx, tx, ticket, item.file, { isSystem: true, presence });
  }
};

// ---------------------------------------------------------------------------------------------------
// Typebot

const typebotTurn = async (rt: Runtime, facts: InboundFacts, target: AutomationTarget, integration: QueueIntegration) => {
  const db = em(rt, facts.companyId);
  const current = await answering(db, facts, target);
  if (!current) return;
  const { ticket, hold } = current;
  const state = hold.state as TypebotState;
  const text = facts.body.trim();
  const keyword = typebotKeyword(integration, text);
  const actor = actorOf(target);
  const transitions = transitionDeps(rt.ctx);

  if (keyword === 'finish') {
    await apply(rt, facts, target, async (tx, ticket) => {
      await closeTicket(transitions, tx, ticket, actor);
    });
    return;
  }
  if (keyword === 'restart') {
    await apply(rt, facts, target, async (tx, ticket, hold) => {
      hold.state = {};
      if (integration.typebotRestartMessage) await send(rt, tx, ticket, [{ kind: 'text', body: integration.typebotRestartMessage }], integration.typebotDelayMessage);
    });
    return;
  }

  const message = await db.findOne(Message, facts.messageId, { fields: ['createdAt'] });
  const at = message?.createdAt ?? new Date();
  let sessionId = state.sessionId;
  // Measured from the customer's previous message, not from the ticket's last change (spec 04 section 10).
  if (sessionId && typebotExpired(integration, state.lastInboundAt, at)) sessionId = undefined;

  const contact = await db.findOneOrFail(Contact, ticket.contactId, { fields: ['name', 'number'] });
  const start = async () => {
    const started = await startChat(
      integration.urlN8N,
      integration.typebotSlug,
      { prefilledVariables: { number: contact.number ?? '', pushName: contact.name, name: contact.name, ticketId: ticket.id } },
      http(rt),
    );
    if (!started.sessionId) throw new TypebotError(502);
    // A flow that starts with a question takes the customer's first words as the answer.
    if (started.messages.length === 0 && started.input && text) return { ...(await continueChat(integration.urlN8N, started.sessionId, text, http(rt))), sessionId: started.sessionId };
    return started;
  };

  let outcome: { answer: TypebotAnswer; prepared: Prepared[]; rest: TypebotOutput[]; seconds: number; waits: [string | undefined, number][]; choices: TypebotChoice[] | null } | { failure: string };
  try {
    let answer: TypebotAnswer;
    if (!sessionId) answer = await start();
    else {
      const choice = state.choices ? pickChoice(state.choices, text) : undefined;
      try {
        answer = { ...(await continueChat(integration.urlN8N, sessionId, choice?.content ?? text, http(rt))), sessionId };
      } catch (err) {
        // Typebot forgot the session (expired on its side): one new session, never a loop.
        if (!(err instanceof TypebotSessionGone)) throw err;
        answer = await start();
      }
    }
    const { outputs, choices } = typebotOutputs(integration, answer);
    const split = splitAtWait(outputs, [...waitsAfter(answer)]);
    outcome = { answer, prepared: await prepare(http(rt), split.now), rest: split.rest, seconds: split.seconds, waits: split.waits, choices };
  } catch (err) {
    outcome = { failure: why(err) };
  }

  await apply(
    rt,
    facts,
    target,
    async (tx, ticket, hold) => {
      if ('failure' in outcome) return fail(rt, tx, ticket, target, integration, outcome.failure);
      hold.state = { sessionId: outcome.answer.sessionId, lastInboundAt: at.toISOString(), choices: outcome.choices } satisfies TypebotState;
      const commandAt = outcome.prepared.findIndex((p) => p.kind === 'text' && readCommand(p.body) !== null);
      const items = commandAt >= 0 ? outcome.prepared.slice(0, commandAt) : outcome.prepared;
      await send(rt, tx, ticket, items, integration.typebotDelayMessage);
      if (commandAt >= 0) return runCommand(rt, tx, ticket, target, integration, readCommand((outcome.prepared[commandAt] as { body: string }).body)!);
      if (outcome.seconds > 0) {
        await rt.ctx.pipeline.waits?.resumeAt(new Date(Date.now() + outcome.seconds * 1000), rt.step(), facts, {
          kind: 'typebot-rest',
          target,
          outputs: outcome.rest,
          waits: outcome.waits,
        });
      }
    },
    hold.version,
  );
};

/** A "#" command: detach (a person takes over in the queue), transfer to a queue, or assign to a user. */
const runCommand = async (
  rt: Runtime,
  tx: EntityManager,
  ticket: Ticket,
  target: AutomationTarget,
  integration: QueueIntegration,
  command: { stopBot?: boolean; queueId?: number; userId?: number },
) => {
  const transitions = transitionDeps(rt.ctx);
  const notes = await notesFor(tx, ticket.companyId);
  const queueId = command.queueId && (await tx.findOne(Queue, command.queueId, { fields: ['id'] })) ? command.queueId : ticket.queueId;
  const user = command.userId ? await tx.findOne(User, command.userId, { fields: ['id'] }) : null;
  if (user) {
    await placeTicket(transitions, tx, ticket, actorOf(target), { status: 'open', userId: user.id, queueId, whatsappId: ticket.whatsappId });
    await tx.flush();
    return;
  }
  await handToPerson(transitions, tx, ticket, target, { queueId, note: notes.integrationEnded(integration.name) });
};

/** The bubbles that came after a wait action, once it is over. */
const typebotRest = async (rt: Runtime, facts: InboundFacts, data: Record<string, unknown>) => {
  const target = data.target as AutomationTarget;
  const integration = await em(rt, facts.companyId).findOne(QueueIntegration, target.id);
  if (!integration) return;
  const split = splitAtWait(data.outputs as TypebotOutput[], (data.waits as [string | undefined, number][]) ?? []);
  const prepared = await prepare(http(rt), split.now);
  await apply(rt, facts, target, async (tx, ticket) => {
    await send(rt, tx, ticket, prepared, integration.typebotDelayMessage);
    if (split.seconds > 0) {
      await rt.ctx.pipeline.waits?.resumeAt(new Date(Date.now() + split.seconds * 1000), rt.step(), facts, { ...data, outputs: split.rest, waits: split.waits });
    }
  });
};

// ---------------------------------------------------------------------------------------------------
// n8n and webhooks

/** The event an n8n or webhook integration receives: ids of everything, the message, its media as a signed URL. */
const messageEvent = async (rt: Runtime, db: EntityManager, facts: InboundFacts, integration: QueueIntegration, eventId: string) => {
  const ticket = await db.findOneOrFail(Ticket, facts.ticketId);
  const contact = await db.findOneOrFail(Contact, ticket.contactId);
  const message = await db.findOne(Message, facts.messageId);
  const connection = await db.getConnection().execute<{ name: string }[]>('select name from whatsapps where id = ?', [facts.whatsappId]);
  const relative = message?.mediaUrl ? rt.ctx.media.url(facts.companyId, message.mediaUrl, 24 * 3600) : null;
  const base = rt.deps.publicUrl ?? `http://localhost:${rt.ctx.config.port}`;
  return {
    event: 'message.received',
    id: eventId,
    timestamp: new Date().toISOString(),
    company: { id: facts.companyId },
    connection: { id: facts.whatsappId, name: connection[0]?.name ?? '' },
    integration: { id: integration.id, name: integration.name },
    ticket: { id: ticket.id, uuid: ticket.uuid, status: ticket.status, queueId: ticket.queueId },
    contact: { id: contact.id, name: contact.name, number: contact.number },
    message: {
      id: facts.messageId,
      wid: message?.wid ?? null,
      type: facts.mediaType,
      body: facts.body,
      mediaUrl: relative ? `${base}${relative}` : null,
      mediaName: message?.mediaName ?? null,
      quotedWid: facts.quotedWid ?? null,
      replyId: facts.replyId ?? null,
      createdAt: (message?.createdAt ?? new Date()).toISOString(),
    },
  };
};

const webhookEvent = async (rt: Runtime, facts: InboundFacts, target: AutomationTarget, integration: QueueIntegration) => {
  const db = em(rt, facts.companyId);
  if (!(await answering(db, facts, target))) return;
  const eventId = `msg_${facts.messageId}`;
  const payload = await messageEvent(rt, db, facts, integration, eventId);
  // Once per message and integration: a task run again after a crash finds its delivery.
  await db.execute(
    `insert into webhook_deliveries (company_id, integration_id, ticket_id, message_id, event_id, event, payload, status, attempts, created_at, updated_at)
     values (?, ?, ?, ?, ?, 'message.received', ?, 'pending', 0, now(), now()) on conflict (integration_id, event_id) do nothing`,
    [facts.companyId, integration.id, facts.ticketId, facts.messageId, eventId, JSON.stringify(payload)],
  );
  const delivery = await db.findOneOrFail(WebhookDelivery, { integrationId: integration.id, eventId });
  await attemptDelivery(rt, facts, target, delivery.id);
};

/** One attempt of a delivery; a timeout, a network error or a 5xx is tried again later (WEBHOOK_RETRY_DELAYS). */
const attemptDelivery = async (rt: Runtime, facts: InboundFacts, target: AutomationTarget, deliveryId: number) => {
  const db = em(rt, facts.companyId);
  const delivery = await db.findOne(WebhookDelivery, deliveryId);
  const integration = delivery && (await db.findOne(QueueIntegration, delivery.integrationId));
  if (!delivery || !integration || delivery.status !== 'pending') return;
  const attempt = await postEvent(integration, secretsOf(rt.deps, integration), { id: delivery.eventId, payload: delivery.payload }, http(rt));
  const delays = rt.deps.config.webhookRetryDelaysMs;
  const attempts = delivery.attempts + 1;
  const again = !attempt.ok && attempt.retry && attempts <= delays.length;
  const nextAttemptAt = again ? new Date(Date.now() + delays[attempts - 1]) : null;
  await db.nativeUpdate(
    WebhookDelivery,
    { id: delivery.id, status: 'pending' },
    {
      status: attempt.ok ? 'delivered' : again ? 'pending' : 'failed',
      attempts,
      statusCode: attempt.statusCode,
      error: attempt.error?.slice(0, 500) ?? null,
      durationMs: attempt.durationMs,
      nextAttemptAt,
      updatedAt: new Date(),
    },
  );
  if (again) {
    await rt.ctx.pipeline.waits?.resumeAt(nextAttemptAt!, rt.step(), facts, { kind: 'webhook-retry', target, deliveryId });
    return;
  }
  if (!attempt.ok) {
    await apply(rt, facts, target, (tx, ticket) => fail(rt, tx, ticket, target, integration, attempt.error ?? 'error'));
    return;
  }
  if (!integration.webhookSync) return;
  const reply = readWebhookReply(attempt.reply);
  await apply(rt, facts, target, async (tx, ticket) => {
    await send(rt, tx, ticket, reply.texts.map((body) => ({ kind: 'text', body })), 0);
    if (reply.handoff) await handToPerson(transitionDeps(rt.ctx), tx, ticket, target, { note: (await notesFor(tx, ticket.companyId)).integrationEnded(integration.name) });
  });
};

// ---------------------------------------------------------------------------------------------------
// Dialogflow ES

const dialogflowTurn = async (rt: Runtime, facts: InboundFacts, target: AutomationTarget, integration: QueueIntegration) => {
  const db = em(rt, facts.companyId);
  const current = await answering(db, facts, target);
  const text = facts.body.trim();
  // Dialogflow reads text; a photo or a sticker is left to the next words.
  if (!current || facts.mediaType !== 'chat' || !text) return;
  let outcome: { texts: string[]; end: boolean } | { failure: string };
  try {
    const account = readServiceAccount(secretsOf(rt.deps, integration).jsonContent);
    if (!account) throw Object.assign(new Error('credentials'), { code: 'ERR_INTEGRATION_INVALID_CREDENTIALS' });
    outcome = await detectIntent(
      { account, projectId: integration.projectName, sessionId: `atrium-ticket-${facts.ticketId}`, text, languageCode: integration.language },
      { endpoint: rt.deps.config.dialogflowEndpoint, timeoutMs: rt.deps.config.timeoutMs },
    );
  } catch (err) {
    outcome = { failure: why(err) };
  }
  await apply(
    rt,
    facts,
    target,
    async (tx, ticket) => {
      if ('failure' in outcome) return fail(rt, tx, ticket, target, integration, outcome.failure);
      await send(rt, tx, ticket, outcome.texts.map((body) => ({ kind: 'text', body })), 0);
      if (outcome.end) await handToPerson(transitionDeps(rt.ctx), tx, ticket, target, { note: (await notesFor(tx, ticket.companyId)).integrationEnded(integration.name) });
    },
    current.hold.version,
  );
};

// ---------------------------------------------------------------------------------------------------

/** The queue-integrations module's inbound step: before the AI prompts (STEP_ORDER.integration). */
export const integrationSteps = (ctx: ModuleContext, deps: IntegrationDeps): OrderedStep[] => {
  const stepDeps = { systemEm: ctx.systemEm, logger: ctx.logger, tasks: () => ctx.pipeline.tasks };
  const rt: Runtime = { ctx, deps, step: () => step };
  const step: InboundStep = automationStep(stepDeps, {
    name: 'queue integration',
    kind: 'integration',
    work: async (facts, target) => {
      const integration = await em(rt, facts.companyId).findOne(QueueIntegration, target.id);
      if (!integration) return;
      if (integration.type === 'typebot') await typebotTurn(rt, facts, target, integration);
      else if (integration.type === 'n8n' || integration.type === 'webhook') await webhookEvent(rt, facts, target, integration);
      else if (integration.type === 'dialogflow') await dialogflowTurn(rt, facts, target, integration);
    },
    resume: async (facts, data) => {
      if (data.kind === 'typebot-rest') await typebotRest(rt, facts, data);
      if (data.kind === 'webhook-retry') await attemptDelivery(rt, facts, data.target as AutomationTarget, Number(data.deliveryId));
    },
  });
  answerOnQueueChoice(ctx.events, stepDeps, () => step, 'integration');
  return [{ order: STEP_ORDER.integration, step }];
};
