import { z } from 'zod';
import { booleanLikeSchema, idSchema, textSchema } from './common.js';

/**
 * The flow builder and flow campaigns (spec 02: Flow, Node, node data by type, Flow campaign; the flow
 * builder validation rules and file limits; section 7 calls; section 9 constants). The canvas document is
 * `{nodes, connections}`; an edge's `sourceHandle` names the outcome that follows it (see flow-graph.ts).
 */
export const FLOWS_PAGE_SIZE = 20;
/** Node ids are random 30-character alphanumerics; the start node's is '1'. */
export const FLOW_NODE_ID_LENGTH = 30;
export const FLOW_START_NODE_ID = '1';
export const FLOW_MAX_NODES = 300;
export const FLOW_MAX_EDGES = 1000;
/** An interval node, or an interval card of a content node, waits 1 to 120 seconds. */
export const FLOW_INTERVAL_MAX_SECONDS = 120;
export const FLOW_MENU_MAX_OPTIONS = 20;
export const FLOW_CONTENT_MAX_ELEMENTS = 30;
/** Invalid answers a menu or question re-asks before its "invalid" output (or a person) takes over. */
export const FLOW_DEFAULT_RETRIES = 3;
export const FLOW_MAX_RETRIES = 10;
/** "No reply within N minutes": at most a week. */
export const FLOW_MAX_TIMEOUT_MINUTES = 7 * 24 * 60;
/** The canvas: a duplicate lands 240 px right of the rightmost node; a new node 40 px past the last one. */
export const FLOW_DUPLICATE_OFFSET_PX = 240;
export const FLOW_NEW_NODE_GAP_PX = 40;
export const FLOW_EDGE_WIDTH_PX = 6;
export const FLOW_IMAGE_QUALITY = 0.7;

/** Upload limits of flow content (spec 02 section 5), checked by the server as by the dialog. */
export const FLOW_MEDIA_RULES = {
  img: { maxBytes: 2 * 1024 * 1024, types: ['image/png', 'image/jpeg'], accept: '.png,.jpg,.jpeg,image/png,image/jpeg' },
  audio: {
    maxBytes: 5 * 1024 * 1024,
    types: ['audio/ogg', 'audio/mpeg', 'audio/mp3', 'audio/opus'],
    accept: '.ogg,.mp3,.opus,audio/ogg,audio/mpeg,audio/opus',
  },
  video: { maxBytes: 20 * 1024 * 1024, types: ['video/mp4'], accept: '.mp4,video/mp4' },
} as const;
export type FlowMediaKind = keyof typeof FLOW_MEDIA_RULES;
export const FLOW_MEDIA_KINDS = Object.keys(FLOW_MEDIA_RULES) as FlowMediaKind[];

/** The kind of a flow upload from its MIME type, or null when flows do not take it. */
export const flowMediaKindOf = (mimetype: string): FlowMediaKind | null => {
  const base = mimetype.split(';')[0].trim().toLowerCase();
  return FLOW_MEDIA_KINDS.find((kind) => (FLOW_MEDIA_RULES[kind].types as readonly string[]).includes(base)) ?? null;
};

/** A stored file's name as the server chose it (random, no path). */
export const flowFileNameSchema = textSchema.regex(/^[A-Za-z0-9_-]{10,64}\.[a-z0-9]{1,10}$/, { message: 'not a stored file' });

/** Azure's Brazilian Portuguese neural voices, or "texto" for text-only answers. */
export const FLOW_VOICES = [
  'texto',
  'pt-BR-FranciscaNeural',
  'pt-BR-AntonioNeural',
  'pt-BR-BrendaNeural',
  'pt-BR-DonatoNeural',
  'pt-BR-ElzaNeural',
  'pt-BR-FabioNeural',
  'pt-BR-GiovannaNeural',
  'pt-BR-HumbertoNeural',
  'pt-BR-JulioNeural',
  'pt-BR-LeilaNeural',
  'pt-BR-LeticiaNeural',
  'pt-BR-ManuelaNeural',
  'pt-BR-NicolauNeural',
  'pt-BR-ValerioNeural',
  'pt-BR-YaraNeural',
] as const;

/** How a condition node compares a variable with its value. */
export const FLOW_CONDITION_OPERATORS = [
  'equals',
  'notEquals',
  'contains',
  'notContains',
  'startsWith',
  'endsWith',
  'greaterThan',
  'lessThan',
  'isEmpty',
  'isNotEmpty',
] as const;
export type FlowConditionOperator = (typeof FLOW_CONDITION_OPERATORS)[number];

/** A variable's name: what {{name}} reads (letters of any language, digits, _). */
export const flowVariableNameSchema = textSchema
  .trim()
  .max(50)
  .regex(/^[\p{L}_][\p{L}\p{N}_]*$/u, { message: 'letters, digits and _ only' });

const label = textSchema.max(200);
const messageText = textSchema.max(4096);
const timeoutMinutes = z.coerce.number().int().min(0).max(FLOW_MAX_TIMEOUT_MINUTES);
const retries = z.coerce.number().int().min(0).max(FLOW_MAX_RETRIES);
const seconds = z.coerce.number().int().min(1).max(FLOW_INTERVAL_MAX_SECONDS);

export const flowMenuOptionSchema = z.object({
  number: z.coerce.number().int().min(1).max(FLOW_MENU_MAX_OPTIONS),
  value: textSchema.trim().min(1).max(200),
});

/** One card of a content node: a text, a pause, an image, an audio or a video, in `seq` order. */
export const flowContentElementSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('message'), number: textSchema.min(1).max(40), value: textSchema.trim().min(1).max(4096) }),
  z.object({ type: z.literal('interval'), number: textSchema.min(1).max(40), value: z.coerce.number().int().min(1).max(FLOW_INTERVAL_MAX_SECONDS) }),
  z.object({ type: z.literal('img'), number: textSchema.min(1).max(40), value: flowFileNameSchema, original: textSchema.max(300).optional() }),
  z.object({
    type: z.literal('audio'),
    number: textSchema.min(1).max(40),
    value: flowFileNameSchema,
    original: textSchema.max(300).optional(),
    record: z.boolean().optional().default(false),
  }),
  z.object({ type: z.literal('video'), number: textSchema.min(1).max(40), value: flowFileNameSchema, original: textSchema.max(300).optional() }),
]);
export type FlowContentElement = z.infer<typeof flowContentElementSchema>;

const openAiSettings = z.object({
  name: textSchema.trim().min(1).max(100),
  /** Write-only: never answered (`hasApiKey` says whether one is kept; see flows.service.ts `withoutKeys`). */
  apiKey: textSchema.trim().max(300).optional().default(''),
  hasApiKey: z.boolean().optional(),
  prompt: textSchema.trim().min(1).max(20000),
  /**
   * Spoken by the OpenAI server's text-to-speech with the node's own key. The old Azure speech key and
   * region are gone: a graph saved with them still parses (unknown keys are dropped) and they are unused.
   */
  voice: z.enum(FLOW_VOICES).optional().default('texto'),
  temperature: z.coerce.number().min(0).max(2).optional().default(1),
  maxTokens: z.coerce.number().int().min(1).max(32000).optional().default(100),
  maxMessages: z.coerce.number().int().min(1).max(100).optional().default(10),
  model: textSchema.trim().max(100).optional(),
  projectName: textSchema.trim().max(100).optional(),
});

const position = z.object({ x: z.number().finite(), y: z.number().finite() });
const nodeBase = {
  id: textSchema.regex(/^[A-Za-z0-9]{1,30}$/, { message: 'node ids are 1-30 letters and digits' }),
  position,
  style: z.record(textSchema.max(50), z.union([textSchema.max(200), z.number()])).optional(),
  width: z.number().optional(),
  height: z.number().optional(),
};

/** A node of the canvas, by type (spec 02 "Node data by type", plus the outputs issue 22 adds). */
export const flowNodeSchema = z.discriminatedUnion('type', [
  z.object({ ...nodeBase, type: z.literal('start'), data: z.object({ label: label.optional().default('Inicio do fluxo') }) }),
  z.object({ ...nodeBase, type: z.literal('message'), data: z.object({ label: messageText.trim().min(1) }) }),
  z.object({ ...nodeBase, type: z.literal('interval'), data: z.object({ sec: seconds, label: label.optional() }) }),
  z.object({
    ...nodeBase,
    type: z.literal('condition'),
    data: z.object({ key: flowVariableNameSchema, condition: z.enum(FLOW_CONDITION_OPERATORS), value: textSchema.max(500).optional().default('') }),
  }),
  z.object({
    ...nodeBase,
    type: z.literal('menu'),
    data: z.object({
      message: messageText.trim().min(1),
      arrayOption: z.array(flowMenuOptionSchema).min(1).max(FLOW_MENU_MAX_OPTIONS),
      retries: retries.optional(),
      timeoutMinutes: timeoutMinutes.optional(),
    }),
  }),
  z.object({ ...nodeBase, type: z.literal('img'), data: z.object({ url: flowFileNameSchema }) }),
  z.object({ ...nodeBase, type: z.literal('audio'), data: z.object({ url: flowFileNameSchema, record: z.boolean().optional().default(false) }) }),
  z.object({ ...nodeBase, type: z.literal('video'), data: z.object({ url: flowFileNameSchema }) }),
  z.object({ ...nodeBase, type: z.literal('randomizer'), data: z.object({ percent: z.coerce.number().int().min(0).max(100) }) }),
  z.object({
    ...nodeBase,
    type: z.literal('singleBlock'),
    data: z.object({
      seq: z.array(textSchema.min(1).max(40)).min(1).max(FLOW_CONTENT_MAX_ELEMENTS),
      elements: z.array(flowContentElementSchema).min(1).max(FLOW_CONTENT_MAX_ELEMENTS),
    }),
  }),
  z.object({
    ...nodeBase,
    type: z.literal('ticket'),
    data: z.object({ queue: z.object({ id: idSchema, name: textSchema.max(100).optional().default('') }) }),
  }),
  z.object({
    ...nodeBase,
    type: z.literal('typebot'),
    data: z.object({
      typebotIntegration: z.object({ id: idSchema, name: textSchema.max(100).optional().default('') }),
    }),
  }),
  z.object({ ...nodeBase, type: z.literal('openai'), data: z.object({ typebotIntegration: openAiSettings }) }),
  z.object({
    ...nodeBase,
    type: z.literal('question'),
    data: z.object({
      typebotIntegration: z.object({ message: messageText.trim().min(1), answerKey: flowVariableNameSchema }),
      retries: retries.optional(),
      timeoutMinutes: timeoutMinutes.optional(),
    }),
  }),
]);
export type FlowNode = z.infer<typeof flowNodeSchema>;
export type FlowNodeInput = z.input<typeof flowNodeSchema>;
export type FlowNodeType = FlowNode['type'];
export type FlowNodeOf<T extends FlowNodeType> = Extract<FlowNode, { type: T }>;
export const FLOW_NODE_TYPES = [
  'start',
  'message',
  'interval',
  'condition',
  'menu',
  'img',
  'audio',
  'video',
  'randomizer',
  'singleBlock',
  'ticket',
  'typebot',
  'openai',
  'question',
] as const satisfies readonly FlowNodeType[];

/** An edge: from a node's output (`sourceHandle`, the outcome it follows) to a node's input. */
export const flowEdgeSchema = z.object({
  id: textSchema.max(200).optional(),
  source: textSchema.min(1).max(30),
  target: textSchema.min(1).max(30),
  sourceHandle: textSchema.max(40).nullable().optional(),
  targetHandle: textSchema.max(40).nullable().optional(),
  type: textSchema.max(40).optional(),
  animated: z.boolean().optional(),
  style: z.record(textSchema.max(50), z.union([textSchema.max(200), z.number()])).optional(),
});
export type FlowEdge = z.infer<typeof flowEdgeSchema>;

/** The canvas document: the nodes and their connections, saved whole. */
export const flowGraphSchema = z.object({
  nodes: z.array(flowNodeSchema).min(1).max(FLOW_MAX_NODES),
  connections: z.array(flowEdgeSchema).max(FLOW_MAX_EDGES),
});
export type FlowGraph = z.infer<typeof flowGraphSchema>;
export type FlowGraphInput = z.input<typeof flowGraphSchema>;

/** Flow name (spec 02 section 5): required, 2 to 50 characters. */
export const flowNameSchema = textSchema.trim().min(2).max(50);

export const listFlowsQuerySchema = z.object({
  searchParam: textSchema.trim().max(200).optional().default(''),
  pageNumber: z.coerce.number().int().min(1).max(100000).optional().default(1),
});
export type ListFlowsQuery = z.infer<typeof listFlowsQuerySchema>;

/** POST /flowbuilder. */
export const createFlowSchema = z.object({ name: flowNameSchema, active: z.boolean().optional().default(true) });
export type CreateFlowInput = z.infer<typeof createFlowSchema>;

/** PUT /flowbuilder: rename (and switch on or off) the flow `flowId`. */
export const updateFlowSchema = z.object({ flowId: idSchema, name: flowNameSchema.optional(), active: z.boolean().optional() });
export type UpdateFlowInput = z.infer<typeof updateFlowSchema>;

/** POST /flowbuilder/duplicate. */
export const duplicateFlowSchema = z.object({ flowId: idSchema });

/** POST /flowbuilder/flow: the canvas of `idFlow`, saved whole; what runs from then on. */
export const saveFlowGraphSchema = flowGraphSchema.extend({ idFlow: idSchema });
export type SaveFlowGraphInput = z.infer<typeof saveFlowGraphSchema>;

/** The multipart fields that come with POST /flowbuilder/img, /audio and /content (files in `medias`). */
export const flowUploadFormSchema = z.object({
  body: textSchema.max(4096).optional(),
  fromMe: textSchema.max(10).optional(),
});

/** The test panel: the canvas being edited, the session it returned last, and what the customer did. */
export const flowTestEventSchema = z.enum(['start', 'message', 'timeout']);
export const flowTestSchema = z.object({
  flowId: idSchema.optional(),
  graph: flowGraphSchema,
  event: flowTestEventSchema,
  body: textSchema.max(4096).optional().default(''),
  /** What the server answered last time (the test session lives in the panel, not on the server). */
  session: z.unknown().optional(),
});
export type FlowTestInput = z.infer<typeof flowTestSchema>;

/** Phrase of a flow campaign (spec 02 section 5: name, flow and phrase required). */
export const FLOW_PHRASE_MATCHES = ['exact', 'contains'] as const;
export type FlowPhraseMatch = (typeof FLOW_PHRASE_MATCHES)[number];

const campaignFields = {
  name: textSchema.trim().min(1).max(100),
  flowId: idSchema,
  whatsappId: idSchema,
  phrase: textSchema.trim().min(1).max(500),
  status: booleanLikeSchema,
  matchType: z.enum(FLOW_PHRASE_MATCHES),
};

/** POST /flowcampaign. */
export const createFlowCampaignSchema = z.object({
  name: campaignFields.name,
  flowId: campaignFields.flowId,
  whatsappId: campaignFields.whatsappId,
  phrase: campaignFields.phrase,
  status: campaignFields.status.optional().default(true),
  matchType: campaignFields.matchType.optional().default('exact'),
});
export type CreateFlowCampaignInput = z.infer<typeof createFlowCampaignSchema>;

/** PUT /flowcampaign: the campaign `id`; only what is sent changes. */
export const updateFlowCampaignSchema = z.object({
  id: idSchema,
  name: campaignFields.name.optional(),
  flowId: campaignFields.flowId.optional(),
  whatsappId: campaignFields.whatsappId.optional(),
  phrase: campaignFields.phrase.optional(),
  status: campaignFields.status.optional(),
  matchType: campaignFields.matchType.optional(),
});
export type UpdateFlowCampaignInput = z.infer<typeof updateFlowCampaignSchema>;

/** GET /flowcampaign: every campaign, or those whose name or phrase has `searchParam`. */
export const listFlowCampaignsQuerySchema = z.object({ searchParam: textSchema.trim().max(200).optional().default('') });

/** The flow campaign dialog: everything a new one needs. */
export const flowCampaignFormSchema = createFlowCampaignSchema;

/**
 * How a phrase and a customer's message are compared: trimmed, spaces collapsed, case and accents
 * ignored (spec 04 section 12 note).
 */
export const normalizePhrase = (text: string): string =>
  text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
