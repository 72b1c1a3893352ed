import { describe, expect, it } from 'vitest';
import { createLogger } from '../../logger.js';
import { runSteps, type InboundFacts, type InboundStep } from './step.js';

const facts = (messageId: number, over: Partial<InboundFacts> = {}): InboundFacts => ({
  companyId: 1,
  whatsappId: 1,
  ticketId: messageId,
  contactId: messageId,
  messageId,
  body: `m${messageId}`,
  mediaType: 'chat',
  fromMe: false,
  isGroup: false,
  isNewTicket: false,
  ratingReply: false,
  ...over,
});

/** A step that records what it was offered and claims the messages `claims` says. */
const recording = (name: string, claims: (f: InboundFacts) => boolean, log: string[], fail?: number): InboundStep => ({
  name,
  candidates: (batch) => {
    log.push(`${name}? ${batch.map((f) => f.messageId).join(',')}`);
    return batch.filter(claims);
  },
  run: async (f) => {
    log.push(`${name} ${f.messageId}`);
    if (f.messageId === fail) throw new Error('step broke');
    return true;
  },
});

const logger = createLogger('silent');

describe('inbound steps', () => {
  it('run in order; a message one step claims is not offered to the next; the batch keeps its order', async () => {
    const log: string[] = [];
    await runSteps(
      [recording('rating', (f) => f.ratingReply, log), recording('bot', () => true, log)],
      [facts(1), facts(2, { ratingReply: true }), facts(3)],
      logger,
    );
    expect(log).toEqual(['rating? 1,2,3', 'rating 2', 'bot? 1,3', 'bot 1', 'bot 3']);
  });

  it('a step may decline a candidate: the next step gets it', async () => {
    const log: string[] = [];
    const declining: InboundStep = { name: 'flow', candidates: (b) => b, run: async () => false };
    await runSteps([declining, recording('bot', () => true, log)], [facts(1)], logger);
    expect(log).toEqual(['bot? 1', 'bot 1']);
  });

  it('a reaction answers no step', async () => {
    const log: string[] = [];
    await runSteps([recording('bot', () => true, log)], [facts(1, { mediaType: 'reactionMessage' }), facts(2)], logger);
    expect(log).toEqual(['bot? 2', 'bot 2']);
  });

  it('a placeholder (a message that could not be read) answers no step', async () => {
    const log: string[] = [];
    await runSteps([recording('bot', () => true, log)], [facts(1, { mediaType: 'unavailable' }), facts(2)], logger);
    expect(log).toEqual(['bot? 2', 'bot 2']);
  });

  it('a failing step fails neither the batch nor the other messages, and keeps the message from later steps', async () => {
    const log: string[] = [];
    await expect(
      runSteps([recording('first', () => true, log, 1), recording('second', () => true, log)], [facts(1), facts(2)], logger),
    ).resolves.toBeUndefined();
    expect(log).toEqual(['first? 1,2', 'first 1', 'first 2']);
  });
});
