import type { EntityManager } from '@mikro-orm/postgresql';
import type { FlowGraph, FlowNodeOf, FlowTestInput, FlowTestReply, FlowTestResult } from '@atrium/shared';
import type { IntegrationsConfig } from '../../config.js';
import { requireAdmin, type ServiceContext } from '../../context.js';
import { requireTenant } from '../../db/tenant.js';
import { AppError } from '../../errors.js';
import type { MediaStore } from '../../media/storage.js';
import type { Sealer } from '../../secrets/sealed.js';
import { Company } from '../companies/company.entity.js';
import { variablesFor } from '../messages/index.js';
import { assertPlanFeature } from '../plans/index.js';
import { AiError, flowAiReplyTo, speak } from '../prompts/index.js';
import { typebotFailure, typebotFlowRest, typebotFlowTurn, type Prepared, type TypebotFlowState } from '../queue-integrations/index.js';
import { QueueIntegration } from '../queue-integrations/queue-integration.entity.js';
import { Queue } from '../queues/queue.entity.js';
import { compileFlow, FlowRunner, newSession, type AdvanceResult, type FlowInput, type FlowIO, type MediaToSend } from './engine/runner.js';
import { flowSessionSchema, type FlowSession, type FlowWait } from './engine/session.js';
import { FlowVersion } from './flow.entity.js';
import { assertMediaKnown } from './flow-media.js';
import { assertGraphShape } from './flows.service.js';
import { openNodeKey, sealKeys } from './openai-keys.js';
import { aiVoiceOf } from './voices.js';

/** What the panel needs besides the request: files' URLs, the key that opens the OpenAI nodes' secrets, timeouts. */
export interface FlowTestDeps {
  media: MediaStore;
  sealer: Sealer;
  config: IntegrationsConfig;
}

const TEST_CUSTOMER = 'Test customer';
const TEST_NUMBER = '5500000000000';

/**
 * The canvas's test panel (POST /flowbuilder/test, admins): the real runner over the canvas being edited,
 * with a throw-away conversation. Nothing is sent, stored or scheduled: the replies come back in the
 * answer, a pause is reported and passed at once, a "no reply" deadline is fired by the panel's button,
 * and the session travels back and forth with the panel (parsed like any input). Typebot and OpenAI nodes
 * are really called (the company's integration and the node's key), within the request.
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

  /** A Typebot or OpenAI call the request makes once the runner yields (runFlowTest). */
  pending: 'start' | 'message' | null = null;

  async toQueue(nodeId: string, queueId: number) {
    const queue = await this.em.findOne(Queue, queueId, { fields: ['id', 'name'] });
    if (!queue) return false;
    this.replies.push({ kind: 'ticket', queueId, queueName: queue.name, nodeId });
    return true;
  }

  /**
   * The panel calls Typebot and OpenAI for real, as a conversation would (the admin's own integration and
   * key: a test spends the company's tokens like a customer's message). The call is made by runFlowTest
   * once the runner yields; a node that could not answer in a conversation hands over here too.
   */
  async handOff(node: FlowNodeOf<'typebot'> | FlowNodeOf<'openai'>) {
    this.replies.push({ kind: 'handoff', to: node.type, nodeId: node.id });
    if (!(await this.available(node))) return 'unavailable' as const;
    this.pending = 'start';
    return 'started' as const;
  }

  async forward() {
    this.pending = 'message';
  }

  /** Whether the node can answer: the plan allows it, the integration exists, the key opens. */
  async available(node: FlowNodeOf<'typebot'> | FlowNodeOf<'openai'>): Promise<boolean> {
    const feature = node.type === 'typebot' ? 'useIntegrations' : 'useOpenAi';
    const allowed = await assertPlanFeature(this.em, requireTenant(this.em), feature).then(
      () => true,
      () => false,
    );
    if (!allowed) return false;
    if (node.type === 'typebot') return !!(await this.em.findOne(QueueIntegration, { id: node.data.typebotIntegration.id, type: 'typebot' }, { fields: ['id'] }));
    return !!this.keyOf(node);
  }

  keyOf: (node: FlowNodeOf<'openai'>) => string | null = () => null;
}

/** A pause is passed at once in the panel; a flow that only pauses still stops (the runner's loop guard). */
const MAX_PAUSES = 50;

type HandoffWait = Extract<FlowWait, { kind: 'handoff' }>;
/** What an OpenAI node keeps in the panel's session: the exchange since the hand-off. */
type AiHistory = { fromMe: boolean; text: string }[];

const replyOf = (nodeId: string, item: Prepared): FlowTestReply => {
  if (item.kind === 'text') return { kind: 'text', body: item.body, nodeId };
  const type = item.file.mimetype.split('/')[0];
  const mediaType = type === 'image' || type === 'audio' || type === 'video' ? type : 'image';
  return { kind: 'media', mediaType, url: null, voiceNote: false, nodeId };
};

/**
 * An OpenAI node's answer as a conversation would get it: with a voice chosen, the voice note spoken with
 * the node's key, carried in the answer itself (a data URL: nothing is stored, and the panel's answer is
 * already the admin's own authenticated request); the text when it cannot be spoken, as a customer would
 * get it too.
 */
const spokenReply = async (apiKey: string, voice: string | undefined, text: string, nodeId: string, timeoutMs: number): Promise<FlowTestReply> => {
  const speaker = aiVoiceOf(voice);
  if (!speaker) return { kind: 'text', body: text, nodeId };
  try {
    const audio = await speak(apiKey, { text, voice: speaker }, timeoutMs);
    return { kind: 'media', mediaType: 'audio', url: `data:audio/ogg;base64,${audio.toString('base64')}`, voiceNote: true, nodeId, text };
  } catch {
    return { kind: 'text', body: text, nodeId };
  }
};

/**
 * One Typebot or OpenAI turn in the panel: its replies, and whether the node is done (the flow goes on).
 * Typebot's waits are passed at once, reported as pauses, as the panel does for the flow's own.
 */
const clientTurn = async (
  em: EntityManager,
  deps: FlowTestDeps,
  io: TestIO,
  node: FlowNodeOf<'typebot'> | FlowNodeOf<'openai'>,
  wait: HandoffWait,
  text: string | null,
): Promise<{ state: Record<string, unknown>; ended: boolean } | { failure: string }> => {
  try {
    if (node.type === 'typebot') {
      const integration = await em.findOne(QueueIntegration, { id: node.data.typebotIntegration.id, type: 'typebot' });
      if (!integration) return { failure: 'the integration is gone' };
      const http = { timeoutMs: deps.config.timeoutMs, allowPrivateNetwork: deps.config.allowPrivateNetwork };
      const turn = await typebotFlowTurn(http, integration, (wait.state ?? {}) as TypebotFlowState, {
        text,
        prefilled: { number: TEST_NUMBER, pushName: TEST_CUSTOMER, name: TEST_CUSTOMER, ticketId: 0 },
      });
      io.replies.push(...turn.messages.map((m) => replyOf(node.id, m)));
      let later = turn.later;
      let command = false;
      for (let i = 0; later && i < MAX_PAUSES; i += 1) {
        io.replies.push({ kind: 'pause', seconds: later.seconds, nodeId: node.id });
        const rest = await typebotFlowRest(http, later);
        io.replies.push(...rest.messages.map((m) => replyOf(node.id, m)));
        command = rest.command;
        later = rest.later;
      }
      return { state: { ...turn.state }, ended: turn.ended || command };
    }
    const apiKey = io.keyOf(node);
    if (!apiKey) return { failure: 'no API key' };
    const settings = node.data.typebotIntegration;
    const history: AiHistory = [...(((wait.state ?? {}).history as AiHistory | undefined) ?? []), ...(text ? [{ fromMe: false, text }] : [])];
    // The panel's conversation starts with the flow: the AI answers the tester's first words, not silence.
    if (history.length === 0) return { state: { history }, ended: false };
    const reply = await flowAiReplyTo(
      em,
      { apiKey, prompt: settings.prompt, model: settings.model, maxTokens: settings.maxTokens, temperature: settings.temperature, maxMessages: settings.maxMessages },
      TEST_CUSTOMER,
      history,
      deps.config.aiTimeoutMs,
    );
    if (reply.text) io.replies.push(await spokenReply(apiKey, settings.voice, reply.text, node.id, deps.config.aiTimeoutMs));
    const kept = [...history, ...(reply.text ? [{ fromMe: true, text: reply.text }] : [])].slice(-settings.maxMessages);
    return { state: { history: kept }, ended: reply.handoff || !reply.text };
  } catch (err) {
    return { failure: node.type === 'typebot' ? typebotFailure(err) : err instanceof AiError ? err.code : 'error' };
  }
};

export const runFlowTest = async (ctx: ServiceContext, deps: FlowTestDeps, input: FlowTestInput): Promise<FlowTestResult> => {
  requireAdmin(ctx.actor);
  const graph: FlowGraph = input.graph;
  assertGraphShape(graph);
  await assertMediaKnown(ctx.em, graph);
  const companyId = requireTenant(ctx.em);
  // The OpenAI nodes' keys: one typed in the canvas, else the one the saved flow keeps for that node.
  let keyed = graph;
  if (graph.nodes.some((n) => n.type === 'openai')) {
    const latest = input.flowId ? await ctx.em.findOne(FlowVersion, { flowId: input.flowId }, { orderBy: { version: 'desc' } }) : null;
    keyed = sealKeys(deps.sealer, companyId, graph, latest?.graph ?? null).graph;
  }
  const compiled = compileFlow(input.flowId ?? 0, 0, keyed);
  let session: FlowSession;
  if (input.event === 'start') session = newSession(compiled);
  else {
    const parsed = flowSessionSchema.safeParse(input.session);
    if (!parsed.success) throw new AppError('ERR_VALIDATION', { fields: [{ path: 'session', message: 'not a test session' }] });
    session = parsed.data;
  }
  const company = await ctx.em.findOneOrFail(Company, companyId);
  const io = new TestIO(company.language, company.timezone, TEST_CUSTOMER, ctx.em, deps.media);
  io.keyOf = (node) => openNodeKey(deps.sealer, companyId, node);
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
  const record = (r: AdvanceResult) => path.push(...r.steps.map((s) => ({ nodeId: s.nodeId, outcome: s.outcome })));
  let result = await runner.advance(session, input_);
  record(result);
  for (let i = 0; i < MAX_PAUSES && result.status === 'waiting'; i += 1) {
    const wait = result.session.wait;
    if (wait?.kind === 'pause') {
      result = await runner.advance(result.session, { kind: 'resume', waitId: wait.id });
      record(result);
      continue;
    }
    // Typebot or OpenAI has the conversation: its answer now, in the same request.
    if (wait?.kind !== 'handoff' || !io.pending) break;
    const text = io.pending === 'message' ? input.body.trim() : null;
    io.pending = null;
    // A message without words says nothing a bot reads: it waits for words.
    if (text === '') break;
    const node = compiled.nodes.get(wait.node);
    if (node?.type !== 'typebot' && node?.type !== 'openai') break;
    const turn = await clientTurn(ctx.em, deps, io, node, wait, text);
    if ('failure' in turn) {
      path.push({ nodeId: node.id, outcome: 'handed' });
      result = { ...result, status: 'handed', session: { ...result.session, wait: null } };
      break;
    }
    if (!turn.ended) {
      result = { ...result, session: { ...result.session, wait: { ...wait, state: turn.state } } };
      break;
    }
    result = await runner.advance(result.session, { kind: 'handBack', waitId: wait.id });
    record(result);
  }
  const wait = result.status === 'waiting' && result.session.wait?.kind === 'answer' ? result.session.wait : null;
  const waitNode = wait ? compiled.nodes.get(wait.node) : undefined;
  const timeoutMinutes = waitNode && (waitNode.type === 'menu' || waitNode.type === 'question') ? (waitNode.data.timeoutMinutes ?? 0) || null : null;
  const handoff = result.status === 'waiting' && result.session.wait?.kind === 'handoff' ? result.session.wait : null;
  return {
    replies: io.replies,
    path,
    status: result.status,
    waiting: wait ? { nodeId: wait.node, timeoutMinutes } : handoff ? { nodeId: handoff.node, timeoutMinutes: null, to: handoff.to } : null,
    session: result.status === 'waiting' ? result.session : null,
    variables: { ...result.session.vars },
  };
};
