import { z } from 'zod';

/**
 * A flow run's live state, kept as the conversation hold's `state` (tickets/holds.ts) and written in the
 * same transaction as every step's sends: the flow and version it runs, the node it stands on, the
 * variables captured so far, the invalid answers at that node, passes through each node since the
 * customer last spoke, and what it waits for (an answer, the end of a pause, a hand-off) until when.
 * The test panel keeps the same object on the client, so it is parsed like any input.
 */
const waitId = z.string().min(1).max(40);
const nodeId = z.string().min(1).max(30);
const instant = z.string().max(40);

export const flowWaitSchema = z.discriminatedUnion('kind', [
  /** A menu or question asked; `until` is the "no reply" deadline when that output is armed. */
  z.object({ kind: z.literal('answer'), id: waitId, node: nodeId, since: instant, until: instant.nullable(), jobId: z.string().max(100).optional() }),
  /** An interval (or a content node's interval card: `index` is the card to go on from). */
  z.object({ kind: z.literal('pause'), id: waitId, node: nodeId, since: instant, until: instant, index: z.number().int().min(0).nullable() }),
  /** The conversation is with Typebot or OpenAI until it ends or hands back. */
  z.object({
    kind: z.literal('handoff'),
    id: waitId,
    node: nodeId,
    since: instant,
    to: z.enum(['typebot', 'openai']),
    /** What the client keeps between two messages (Typebot's session and the choices it offered). */
    state: z.record(z.string().max(40), z.unknown()).optional(),
  }),
]);
export type FlowWait = z.infer<typeof flowWaitSchema>;

export const flowSessionSchema = z.object({
  runId: z.number().int().min(0),
  flowId: z.number().int().min(0),
  version: z.number().int().min(0),
  node: nodeId,
  vars: z.record(z.string().max(50), z.string().max(4096)),
  retries: z.number().int().min(0).max(1000),
  passes: z.record(nodeId, z.number().int().min(0).max(100000)),
  wait: flowWaitSchema.nullable(),
});
export type FlowSession = z.infer<typeof flowSessionSchema>;

/** The session in a hold's state, or null when that state is not a flow's. */
export const sessionOf = (state: unknown): FlowSession | null => {
  const parsed = flowSessionSchema.safeParse(state);
  return parsed.success ? parsed.data : null;
};
