import type { EntityManager } from '@mikro-orm/postgresql';
import type { FlowGraph, FlowTestInput, FlowTestReply, FlowTestResult } from '@atrium/shared';
import { requireAdmin, type ServiceContext } from '../../context.js';
import { requireTenant } from '../../db/tenant.js';
import { AppError } from '../../errors.js';
import type { MediaStore } from '../../media/storage.js';
import { Company } from '../companies/company.entity.js';
import { variablesFor } from '../messages/index.js';
import { Queue } from '../queues/queue.entity.js';
import { compileFlow, FlowRunner, newSession, type FlowInput, type FlowIO, type MediaToSend } from './engine/runner.js';
import { flowSessionSchema, type FlowSession } from './engine/session.js';
import { assertMediaKnown } from './flow-media.js';
import { assertGraphShape } from './flows.service.js';

/**
 * The canvas's test panel (POST /flowbuilder/test, admins): the real runner over the canvas being edited,
 * with a throw-away conversation. Nothing is sent, stored or scheduled: the replies come back in the
 * answer, a pause is reported and passed at once, a "no reply" deadline is fired by the panel's button,
 * and the session travels back and forth with the panel (parsed like any input).
 */
class TestIO implements FlowIO {
  readonly replies: FlowTestReply[] = [];
  readonly baseVars: Record<string, string>;

  constructor(
    readonly lang: string,
    timeZone: string,
    name: string,
    private readonly em: EntityManager,
    private readonly media: MediaStore,
  ) {
    this.baseVars = { ...variablesFor({ contactName: name, timeZone, protocolSeed: { ticketId: 0, createdAt: new Date() } }), number: '5500000000000', email: '' };
  }

  now() {
    return new Date();
  }

  random() {
    return Math.random();
  }

  async say(nodeId: string, text: string) {
    if (text.trim()) this.replies.push({ kind: 'text', body: text, nodeId });
  }

  async sendMedia(nodeId: string, media: MediaToSend) {
    const mediaType = media.kind === 'img' ? 'image' : media.kind;
    this.replies.push({ kind: 'media', mediaType, url: this.media.url(requireTenant(this.em), media.fileName), voiceNote: media.voiceNote, nodeId });
  }

  async pause(nodeId: string, until: Date) {
    this.replies.push({ kind: 'pause', seconds: Math.round((until.getTime() - Date.now()) / 1000), nodeId });
  }

  async expectReply() {
    return undefined;
  }

  forgetReply() {}

  async toQueue(nodeId: string, queueId: number) {
    const queue = await this.em.findOne(Queue, queueId, { fields: ['id', 'name'] });
    if (!queue) return false;
    this.replies.push({ kind: 'ticket', queueId, queueName: queue.name, nodeId });
    return true;
  }

  /** The panel does not call Typebot or OpenAI (a test would spend the company's tokens): it shows where a person would take over. */
  async handOff(node: { id: string; type: 'typebot' | 'openai' }) {
    this.replies.push({ kind: 'handoff', to: node.type, nodeId: node.id });
    return 'unavailable' as const;
  }

  // The panel never hands over (above), so it never has a message to forward.
  async forward() {}
}

/** A pause is passed at once in the panel; a flow that only pauses still stops (the runner's loop guard). */
const MAX_PAUSES = 50;

export const runFlowTest = async (ctx: ServiceContext, media: MediaStore, input: FlowTestInput): Promise<FlowTestResult> => {
  requireAdmin(ctx.actor);
  const graph: FlowGraph = input.graph;
  assertGraphShape(graph);
  await assertMediaKnown(ctx.em, graph);
  const compiled = compileFlow(input.flowId ?? 0, 0, graph);
  let session: FlowSession;
  if (input.event === 'start') session = newSession(compiled);
  else {
    const parsed = flowSessionSchema.safeParse(input.session);
    if (!parsed.success) throw new AppError('ERR_VALIDATION', { fields: [{ path: 'session', message: 'not a test session' }] });
    session = parsed.data;
  }
  const company = await ctx.em.findOneOrFail(Company, requireTenant(ctx.em));
  const io = new TestIO(company.language, company.timezone, 'Test customer', ctx.em, media);
  const runner = new FlowRunner(compiled, io);

  let input_: FlowInput;
  if (input.event === 'start') input_ = { kind: 'start' };
  else if (input.event === 'message') input_ = { kind: 'message', body: input.body, replyId: null, hasText: !!input.body.trim() };
  else {
    if (session.wait?.kind !== 'answer') throw new AppError('ERR_VALIDATION', { fields: [{ path: 'event', message: 'not waiting for an answer' }] });
    // The panel plays the deadline: it fires whether or not minutes were set.
    session = { ...session, wait: { ...session.wait, until: session.wait.until ?? new Date().toISOString() } };
    input_ = { kind: 'timeout', waitId: session.wait!.id };
  }

  const path: FlowTestResult['path'] = [];
  let result = await runner.advance(session, input_);
  path.push(...result.steps.map((s) => ({ nodeId: s.nodeId, outcome: s.outcome })));
  for (let i = 0; i < MAX_PAUSES && result.status === 'waiting' && result.session.wait?.kind === 'pause'; i += 1) {
    result = await runner.advance(result.session, { kind: 'resume', waitId: result.session.wait.id });
    path.push(...result.steps.map((s) => ({ nodeId: s.nodeId, outcome: s.outcome })));
  }
  const wait = result.status === 'waiting' && result.session.wait?.kind === 'answer' ? result.session.wait : null;
  const waitNode = wait ? compiled.nodes.get(wait.node) : undefined;
  const timeoutMinutes = waitNode && (waitNode.type === 'menu' || waitNode.type === 'question') ? (waitNode.data.timeoutMinutes ?? 0) || null : null;
  return {
    replies: io.replies,
    path,
    status: result.status,
    waiting: wait ? { nodeId: wait.node, timeoutMinutes } : null,
    session: result.status === 'waiting' ? result.session : null,
    variables: { ...result.session.vars },
  };
};
