import { randomBytes } from 'node:crypto';
import {
  DEFAULT_HANDLE,
  edgeIndex,
  FLOW_DEFAULT_RETRIES,
  INVALID_HANDLE,
  menuHandle,
  startNodeOf,
  TIMEOUT_HANDLE,
  type FlowGraph,
  type FlowMediaKind,
  type FlowNode,
  type FlowNodeOf,
  type FlowRunStatus,
} from '@atrium/shared';
import { evaluateCondition, matchMenuOption, renderFlowText } from './answers.js';
import type { FlowSession, FlowWait } from './session.js';
import { menuRetryText, menuText, questionRetryText } from './texts.js';

/**
 * The flow engine: a small graph runner. Each node runs and answers an outcome, which names the output
 * (the edge's `sourceHandle`) to follow; nodes are never taken in the order they are stored. A node that
 * needs the customer (a menu, a question) or time (an interval) yields: the session says what it waits
 * for and the run stops until that comes. Guards: at most MAX_STEPS nodes per advance and MAX_PASSES
 * through one node between two customer messages, after which a person takes over (a loop of intervals
 * or of plain nodes never spins or spams). Effects (sends, queue moves, timers) go through a FlowIO, so the
 * same runner drives a ticket's conversation and the canvas's test panel.
 */
export const MAX_STEPS = 100;
export const MAX_PASSES = 10;

/** A flow's graph ready to run: nodes by id, edges by source and output. */
export interface CompiledFlow {
  flowId: number;
  version: number;
  nodes: Map<string, FlowNode>;
  edges: Map<string, Map<string, string>>;
  start: FlowNode | undefined;
}

export const compileFlow = (flowId: number, version: number, graph: FlowGraph): CompiledFlow => ({
  flowId,
  version,
  nodes: new Map(graph.nodes.map((n) => [n.id, n])),
  edges: edgeIndex(graph),
  start: startNodeOf(graph),
});

export interface MediaToSend {
  fileName: string;
  kind: FlowMediaKind;
  /** An audio card marked "record": sent as a voice note. */
  voiceNote: boolean;
}

/** What a run does to the world. */
export interface FlowIO {
  /** The company's language, for the engine's own texts. */
  readonly lang: string;
  /** The message variables of this conversation (contact, protocol, greeting, date, time). */
  readonly baseVars: Readonly<Record<string, string>>;
  now(): Date;
  random(): number;
  say(nodeId: string, text: string, presence?: 'typing'): Promise<void>;
  sendMedia(nodeId: string, media: MediaToSend): Promise<void>;
  /** Plans the end of a pause: the run goes on with a `resume` carrying `waitId` at `until`. */
  pause(nodeId: string, until: Date, waitId: string): Promise<void>;
  /** Plans the "no reply" deadline: a `timeout` carrying `waitId` at `until`. Answers a handle to cancel it. */
  expectReply(nodeId: string, until: Date, waitId: string): Promise<string | undefined>;
  /** The deadline will not matter any more (answered in time): let it go. */
  forgetReply(wait: FlowWait): void;
  /** Moves the ticket to the queue, waiting for a person; false when the queue is gone. */
  toQueue(nodeId: string, queueId: number): Promise<boolean>;
  /**
   * Gives the conversation to Typebot or OpenAI (its first call is made after commit); 'unavailable' when
   * that cannot be done (the integration is gone, the node has no key). The client hands it back with a
   * `handBack` input once it is done.
   */
  handOff(node: FlowNodeOf<'typebot'> | FlowNodeOf<'openai'>, waitId: string): Promise<'started' | 'unavailable'>;
  /** A customer's message while Typebot or OpenAI has the conversation: goes to that client. */
  forward(wait: Extract<FlowWait, { kind: 'handoff' }>): Promise<void>;
}

export type FlowInput =
  | { kind: 'start' }
  | { kind: 'message'; body: string; replyId?: string | null; hasText: boolean }
  | { kind: 'resume'; waitId: string }
  | { kind: 'timeout'; waitId: string }
  | { kind: 'handBack'; waitId: string };

export interface StepRecord {
  nodeId: string;
  nodeType: string;
  outcome: string;
  detail: string | null;
}

export interface AdvanceResult {
  session: FlowSession;
  /** waiting (for an answer, a pause, a hand-off) or finished: done, expired, handed to a person. */
  status: Exclude<FlowRunStatus, 'running'>;
  steps: StepRecord[];
  /** False when the input was not for this session (a stale timer): nothing happened. */
  applied: boolean;
}

type Exec =
  | { outcome: string; detail?: string }
  | { wait: FlowWait; detail?: string }
  | { end: 'done' | 'handed' | 'expired'; detail: string };

export const newWaitId = () => randomBytes(9).toString('base64url');

/** A new session on the flow's start node. */
export const newSession = (flow: CompiledFlow, runId = 0): FlowSession => ({
  runId,
  flowId: flow.flowId,
  version: flow.version,
  node: flow.start?.id ?? '1',
  vars: {},
  retries: 0,
  passes: {},
  wait: null,
});

export class FlowRunner {
  private steps: StepRecord[] = [];
  private s!: FlowSession;

  constructor(
    private readonly flow: CompiledFlow,
    private readonly io: FlowIO,
  ) {}

  private get vars(): Record<string, string> {
    return { ...this.io.baseVars, ...this.s.vars };
  }

  private render(text: string): string {
    return text.includes('{{') ? renderFlowText(text, this.vars) : text;
  }

  private log(node: FlowNode, outcome: string, detail?: string | null) {
    this.steps.push({ nodeId: node.id, nodeType: node.type, outcome, detail: detail ? detail.slice(0, 300) : null });
  }

  private result(status: AdvanceResult['status'], applied = true): AdvanceResult {
    return { session: this.s, status, steps: this.steps, applied };
  }

  async advance(session: FlowSession, input: FlowInput): Promise<AdvanceResult> {
    this.s = structuredClone(session);
    this.steps = [];
    const wait = this.s.wait;

    if (input.kind === 'start') {
      const start = this.flow.start;
      if (!start) return this.end(null, 'expired', 'the flow has no start');
      return this.walk({ node: start });
    }

    if (input.kind === 'message') {
      if (!wait) return this.result('waiting', false);
      const node = this.flow.nodes.get(wait.node);
      if (!node) return this.end(null, 'expired', 'the node it waited on is gone');
      if (wait.kind === 'handoff') {
        await this.io.forward(wait);
        this.log(node, 'forwarded', `to ${wait.to}`);
        return this.result('waiting');
      }
      if (wait.kind !== 'answer') {
        // A pause is under way: what the customer says now is not an answer to anything.
        this.log(node, 'ignored', 'a message during a pause');
        return this.result('waiting');
      }
      // The customer spoke: loops are counted again from here.
      this.s.passes = {};
      const answered = await this.answer(node, wait, input);
      if ('wait' in answered) {
        this.s.wait = answered.wait;
        return this.result('waiting');
      }
      if ('end' in answered) return this.end(node, answered.end, answered.detail);
      this.io.forgetReply(wait);
      this.s.wait = null;
      return this.follow(node, answered.outcome);
    }

    if (!wait || wait.id !== input.waitId) return this.result(wait ? 'waiting' : 'done', false);
    const node = this.flow.nodes.get(wait.node);
    if (!node) return this.end(null, 'expired', 'the node it waited on is gone');

    if (input.kind === 'resume') {
      if (wait.kind !== 'pause') return this.result('waiting', false);
      this.s.wait = null;
      if (wait.index !== null && node.type === 'singleBlock') return this.walk({ node, index: wait.index }, false);
      this.log(node, DEFAULT_HANDLE, 'pause over');
      return this.follow(node, DEFAULT_HANDLE);
    }
    if (input.kind === 'timeout') {
      if (wait.kind !== 'answer' || !wait.until) return this.result('waiting', false);
      this.s.wait = null;
      this.s.retries = 0;
      if (!this.flow.edges.get(node.id)?.has(TIMEOUT_HANDLE)) return this.end(node, 'expired', 'no reply in time');
      this.log(node, TIMEOUT_HANDLE, 'no reply in time');
      return this.follow(node, TIMEOUT_HANDLE);
    }
    // Typebot or OpenAI gave the conversation back.
    if (wait.kind !== 'handoff') return this.result('waiting', false);
    this.s.wait = null;
    this.log(node, DEFAULT_HANDLE, `${wait.to} handed back`);
    return this.follow(node, DEFAULT_HANDLE);
  }

  private end(node: FlowNode | null, status: 'done' | 'handed' | 'expired', detail: string): AdvanceResult {
    if (node) this.log(node, status, detail);
    else this.steps.push({ nodeId: this.s.node, nodeType: 'flow', outcome: status, detail });
    this.s.wait = null;
    return this.result(status);
  }

  /** Leaves `from` by its output `outcome`: the flow ends where no edge goes on. */
  private follow(from: FlowNode, outcome: string): Promise<AdvanceResult> | AdvanceResult {
    const targetId = this.flow.edges.get(from.id)?.get(outcome);
    const target = targetId ? this.flow.nodes.get(targetId) : undefined;
    if (!target) return this.end(from, 'done', 'end of the flow');
    return this.walk({ node: target });
  }

  /** Runs nodes from `cursor` until one waits or the flow ends. */
  private async walk(cursor: { node: FlowNode; index?: number }, count = true): Promise<AdvanceResult> {
    let steps = 0;
    let current: { node: FlowNode; index?: number } | undefined = cursor;
    let counted = count;
    while (current) {
      const node: FlowNode = current.node;
      if (counted) {
        steps += 1;
        const passes = (this.s.passes[node.id] ?? 0) + 1;
        this.s.passes[node.id] = passes;
        if (steps > MAX_STEPS) return this.end(node, 'handed', `more than ${MAX_STEPS} steps for one message`);
        if (passes > MAX_PASSES) return this.end(node, 'handed', `passed here more than ${MAX_PASSES} times without an answer`);
      }
      counted = true;
      this.s.node = node.id;
      const exec = await this.exec(node, current.index ?? 0);
      if ('wait' in exec) {
        this.log(node, exec.wait.kind === 'answer' ? 'asked' : exec.wait.kind, exec.detail);
        this.s.wait = exec.wait;
        return this.result('waiting');
      }
      if ('end' in exec) return this.end(node, exec.end, exec.detail);
      this.log(node, exec.outcome, exec.detail);
      const targetId: string | undefined = this.flow.edges.get(node.id)?.get(exec.outcome);
      const target: FlowNode | undefined = targetId ? this.flow.nodes.get(targetId) : undefined;
      if (!target) return this.end(node, 'done', 'end of the flow');
      current = { node: target };
    }
    return this.result('done');
  }

  private async askAgain(node: FlowNode, text: string): Promise<FlowWait> {
    await this.io.say(node.id, text);
    return this.answerWait(node);
  }

  /** What a blocking node waits for: the answer, and the "no reply" deadline when it has minutes. */
  private async answerWait(node: FlowNode): Promise<FlowWait> {
    const minutes = node.type === 'menu' || node.type === 'question' ? (node.data.timeoutMinutes ?? 0) : 0;
    const now = this.io.now();
    const id = newWaitId();
    if (minutes <= 0) return { kind: 'answer', id, node: node.id, since: now.toISOString(), until: null };
    const until = new Date(now.getTime() + minutes * 60_000);
    const jobId = await this.io.expectReply(node.id, until, id);
    return { kind: 'answer', id, node: node.id, since: now.toISOString(), until: until.toISOString(), ...(jobId ? { jobId } : {}) };
  }

  private async pauseWait(node: FlowNode, seconds: number, index: number | null): Promise<FlowWait> {
    const now = this.io.now();
    const id = newWaitId();
    const until = new Date(now.getTime() + seconds * 1000);
    await this.io.pause(node.id, until, id);
    return { kind: 'pause', id, node: node.id, since: now.toISOString(), until: until.toISOString(), index };
  }

  /**
   * The customer's answer to a menu or a question: the outcome to follow, or the same question asked again
   * (up to the node's retries), then the "invalid" output, or a person when it has none.
   */
  private async answer(
    node: FlowNode,
    wait: FlowWait,
    input: Extract<FlowInput, { kind: 'message' }>,
  ): Promise<{ outcome: string } | { wait: FlowWait } | { end: 'handed'; detail: string }> {
    if (node.type !== 'menu' && node.type !== 'question') return { end: 'handed', detail: `a ${node.type} node does not take answers` };
    let outcome: string | null = null;
    if (node.type === 'menu') {
      const chosen = matchMenuOption(node.data.arrayOption, input.body, input.replyId, (t) => this.render(t));
      if (chosen !== null) {
        outcome = menuHandle(chosen);
        this.log(node, outcome, `answered option ${chosen}`);
      }
    } else {
      const text = input.body.trim();
      if (text && input.hasText) {
        this.s.vars[node.data.typebotIntegration.answerKey] = text.slice(0, 4096);
        outcome = DEFAULT_HANDLE;
        this.log(node, outcome, `saved {{${node.data.typebotIntegration.answerKey}}}`);
      }
    }
    if (outcome) {
      this.s.retries = 0;
      return { outcome };
    }

    this.s.retries += 1;
    const allowed = node.data.retries ?? FLOW_DEFAULT_RETRIES;
    if (this.s.retries <= allowed) {
      this.log(node, INVALID_HANDLE, `asked again (${this.s.retries} of ${allowed})`);
      this.io.forgetReply(wait);
      const again =
        node.type === 'menu'
          ? menuRetryText(this.io.lang, node.data.arrayOption.map((o) => ({ number: o.number, value: this.render(o.value) })))
          : questionRetryText(this.io.lang, this.render(node.data.typebotIntegration.message));
      return { wait: await this.askAgain(node, again) };
    }
    this.s.retries = 0;
    this.io.forgetReply(wait);
    if (this.flow.edges.get(node.id)?.has(INVALID_HANDLE)) {
      this.log(node, INVALID_HANDLE, `${allowed + 1} invalid answers`);
      return { outcome: INVALID_HANDLE };
    }
    return { end: 'handed', detail: `${allowed + 1} invalid answers and no "invalid" output` };
  }

  private async exec(node: FlowNode, index: number): Promise<Exec> {
    switch (node.type) {
      case 'start':
        return { outcome: DEFAULT_HANDLE };
      case 'message':
        await this.io.say(node.id, this.render(node.data.label));
        return { outcome: DEFAULT_HANDLE };
      case 'interval':
        return { wait: await this.pauseWait(node, node.data.sec, null), detail: `${node.data.sec} s` };
      case 'condition': {
        const holds = evaluateCondition(node.data.condition, this.vars[node.data.key], this.render(node.data.value ?? ''));
        return { outcome: holds ? 'true' : 'false', detail: `{{${node.data.key}}} ${node.data.condition} "${node.data.value ?? ''}"` };
      }
      case 'menu': {
        const options = node.data.arrayOption.map((o) => ({ number: o.number, value: this.render(o.value) }));
        this.s.retries = 0;
        await this.io.say(node.id, menuText(this.render(node.data.message), options));
        return { wait: await this.answerWait(node) };
      }
      case 'question':
        this.s.retries = 0;
        await this.io.say(node.id, this.render(node.data.typebotIntegration.message));
        return { wait: await this.answerWait(node), detail: `{{${node.data.typebotIntegration.answerKey}}}` };
      case 'img':
        await this.io.sendMedia(node.id, { fileName: node.data.url, kind: 'img', voiceNote: false });
        return { outcome: DEFAULT_HANDLE };
      case 'video':
        await this.io.sendMedia(node.id, { fileName: node.data.url, kind: 'video', voiceNote: false });
        return { outcome: DEFAULT_HANDLE };
      case 'audio':
        await this.io.sendMedia(node.id, { fileName: node.data.url, kind: 'audio', voiceNote: node.data.record });
        return { outcome: DEFAULT_HANDLE };
      case 'randomizer': {
        const roll = this.io.random() * 100;
        return { outcome: roll < node.data.percent ? 'a' : 'b' };
      }
      case 'singleBlock':
        return this.content(node, index);
      case 'ticket': {
        const moved = await this.io.toQueue(node.id, node.data.queue.id);
        return moved
          ? { end: 'done', detail: `moved to the queue ${node.data.queue.name || node.data.queue.id}` }
          : { end: 'handed', detail: `the queue ${node.data.queue.id} no longer exists` };
      }
      case 'typebot':
      case 'openai': {
        const id = newWaitId();
        const started = await this.io.handOff(node, id);
        if (started === 'unavailable') return { end: 'handed', detail: `${node.type} is not available` };
        const wait: FlowWait = { kind: 'handoff', id, node: node.id, since: this.io.now().toISOString(), to: node.type };
        return { wait };
      }
    }
  }

  /** A content node's cards from `from` on, in `seq` order; an interval card pauses the run. */
  private async content(node: FlowNodeOf<'singleBlock'>, from: number): Promise<Exec> {
    const cards = new Map(node.data.elements.map((e) => [e.number, e]));
    for (let i = from; i < node.data.seq.length; i += 1) {
      const card = cards.get(node.data.seq[i]);
      if (!card) continue;
      switch (card.type) {
        case 'message':
          await this.io.say(node.id, this.render(card.value), 'typing');
          break;
        case 'interval':
          return { wait: await this.pauseWait(node, card.value, i + 1), detail: `card ${i + 1}: ${card.value} s` };
        case 'img':
          await this.io.sendMedia(node.id, { fileName: card.value, kind: 'img', voiceNote: false });
          break;
        case 'video':
          await this.io.sendMedia(node.id, { fileName: card.value, kind: 'video', voiceNote: false });
          break;
        case 'audio':
          await this.io.sendMedia(node.id, { fileName: card.value, kind: 'audio', voiceNote: card.record });
          break;
      }
    }
    return { outcome: DEFAULT_HANDLE };
  }
}
