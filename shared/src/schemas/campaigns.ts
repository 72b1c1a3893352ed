import { z } from 'zod';
import { idSchema, instantSchema, nameSchema, textSchema } from './common.js';

/** Campaigns, their settings and reports (spec 02 sections 2-5, 7 and 9; spec 04 sections 1 and 2). */
export const CAMPAIGNS_PAGE_SIZE = 20;
export const CAMPAIGN_SHIPPING_PAGE_SIZE = 50;

/** INATIVA (new), PROGRAMADA (scheduled), EM_ANDAMENTO (running), CANCELADA (paused), FINALIZADA (done). */
export const CAMPAIGN_STATUSES = ['INATIVA', 'PROGRAMADA', 'EM_ANDAMENTO', 'CANCELADA', 'FINALIZADA'] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

/** Up to 5 message variants: each contact gets one of the non-empty ones, picked at random (spec 02 section 9). */
export const CAMPAIGN_MESSAGE_FIELDS = ['message1', 'message2', 'message3', 'message4', 'message5'] as const;
export type CampaignMessageField = (typeof CAMPAIGN_MESSAGE_FIELDS)[number];
export const CAMPAIGN_MESSAGE_MAX = 4096;

/** A PROGRAMADA campaign stays editable while its start is more than this far ahead (spec 02 sections 4 and 9). */
export const CAMPAIGN_EDIT_LEAD_MS = 60 * 60 * 1000;

/**
 * Whether the campaign dialog may save (spec 02 section 4): INATIVA; PROGRAMADA more than an hour ahead;
 * CANCELADA (a paused campaign can still be changed before it is restarted). The server applies the same
 * rule to the stored campaign.
 */
export const isCampaignEditable = (campaign: { status: string; scheduledAt: string | Date | null }, now: Date = new Date()): boolean => {
  if (campaign.status === 'INATIVA' || campaign.status === 'CANCELADA') return true;
  if (campaign.status !== 'PROGRAMADA' || !campaign.scheduledAt) return false;
  return new Date(campaign.scheduledAt).getTime() - now.getTime() > CAMPAIGN_EDIT_LEAD_MS;
};

/** The campaign's own placeholders (spec 04 section 1), filled from the list item; `{{...}}` variables work too. */
export const CAMPAIGN_ITEM_PLACEHOLDERS = ['{nome}', '{email}', '{numero}'] as const;

const message = textSchema.max(CAMPAIGN_MESSAGE_MAX);
/** A reference the old form sends as '' or 'Nenhuma' ("none") when nothing is chosen. */
const optionalRef = z.union([z.literal(''), z.literal('Nenhuma'), z.null(), idSchema]).transform((v) => (typeof v === 'number' ? v : null));
/** scheduledAt: empty or null for none. */
const scheduledAt = z.union([z.literal(''), z.null(), instantSchema]).transform((v) => (v instanceof Date ? v : null));

const campaignFields = {
  name: nameSchema,
  message1: message,
  message2: message,
  message3: message,
  message4: message,
  message5: message,
  scheduledAt,
  whatsappId: optionalRef,
  contactListId: optionalRef,
  /** The form's name for the tag source (spec 02 section 3); `tagId` is accepted as well. */
  tagListId: optionalRef,
  tagId: optionalRef,
  fileListId: optionalRef,
  /** Derived by the server from scheduledAt; accepted and ignored, as `confirmation` (spec 04 section 1). */
  status: z.enum(CAMPAIGN_STATUSES),
  confirmation: z.union([z.boolean(), textSchema.max(10)]),
};

export const createCampaignSchema = z.object({
  ...campaignFields,
  message1: message.optional().default(''),
  message2: message.optional().default(''),
  message3: message.optional().default(''),
  message4: message.optional().default(''),
  message5: message.optional().default(''),
  scheduledAt: scheduledAt.optional(),
  whatsappId: optionalRef.optional(),
  contactListId: optionalRef.optional(),
  tagListId: optionalRef.optional(),
  tagId: optionalRef.optional(),
  fileListId: optionalRef.optional(),
  status: campaignFields.status.optional(),
  confirmation: campaignFields.confirmation.optional(),
});
export type CreateCampaignInput = z.infer<typeof createCampaignSchema>;

/** Only the fields sent change. */
export const updateCampaignSchema = z.object(
  Object.fromEntries(Object.entries(campaignFields).map(([k, v]) => [k, v.optional()])) as {
    [K in keyof typeof campaignFields]: z.ZodOptional<(typeof campaignFields)[K]>;
  },
);
export type UpdateCampaignInput = z.infer<typeof updateCampaignSchema>;

/** The campaign's file (POST /campaigns/{id}/media-upload, field "file"): what WhatsApp carries. */
export const CAMPAIGN_MEDIA_MAX_BYTES = 16 * 1024 * 1024;
export const CAMPAIGN_MEDIA_TYPES = [
  'image/*',
  'audio/*',
  'video/*',
  'application/pdf',
  'text/plain',
  'application/msword',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.ms-excel',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
] as const;

// ---------------------------------------------------------------------------------------------------
// Campaign settings (GET/POST /campaign-settings)

/** Defaults when missing (spec 02 section 9): seconds, sends, seconds. */
export const CAMPAIGN_SETTING_DEFAULTS = {
  messageInterval: 20,
  longerIntervalAfter: 20,
  greaterInterval: 60,
  variables: [] as { key: string; value: string }[],
  /** Send window in the company's time zone ('' and '': always). */
  sendWindowStart: '',
  sendWindowEnd: '',
  /** Campaign sends per connection per day (0: no cap). */
  dailyLimit: 0,
};
export type CampaignSettings = typeof CAMPAIGN_SETTING_DEFAULTS;
export const CAMPAIGN_SETTING_KEYS = Object.keys(CAMPAIGN_SETTING_DEFAULTS) as (keyof CampaignSettings)[];

/** The screen's choices (spec 02 section 9); the server takes any whole number in range. */
export const MESSAGE_INTERVAL_OPTIONS = [0, 5, 10, 15, 20] as const;
export const LONGER_INTERVAL_OPTIONS = [0, 1, 5, 10, 15, 20, 30, 40, 60, 80, 100, 120] as const;
export const CAMPAIGN_INTERVAL_MAX_S = 3600;
export const CAMPAIGN_LONGER_AFTER_MAX = 100000;
export const CAMPAIGN_DAILY_LIMIT_MAX = 1000000;
export const CAMPAIGN_VARIABLES_MAX = 50;
/** A variable's key: what goes between braces, {key}. */
export const CAMPAIGN_VARIABLE_KEY = /^[A-Za-z0-9_]{1,40}$/;

const seconds = z.coerce.number().int().min(0).max(CAMPAIGN_INTERVAL_MAX_S);
const hhmm = z.union([z.literal(''), textSchema.regex(/^([01]\d|2[0-3]):[0-5]\d$/)]);
const variable = z.object({
  key: textSchema.trim().regex(CAMPAIGN_VARIABLE_KEY, { message: 'letters, digits and _ (1 to 40)' }),
  value: textSchema.max(1000),
});
/** The old client sends the variables as JSON text as often as an array. */
const variables = z
  .union([z.array(z.unknown()), textSchema.max(200000)])
  .transform((v, ctx) => {
    if (Array.isArray(v)) return v;
    try {
      const parsed: unknown = JSON.parse(v || '[]');
      return Array.isArray(parsed) ? parsed : [parsed];
    } catch {
      ctx.addIssue({ code: 'custom', message: 'not a JSON list' });
      return z.NEVER;
    }
  })
  .pipe(z.array(variable).max(CAMPAIGN_VARIABLES_MAX))
  .refine((list) => new Set(list.map((v) => v.key.toLowerCase())).size === list.length, { message: 'duplicated key' });

export const campaignSettingsValuesSchema = z
  .object({
    messageInterval: seconds.optional(),
    longerIntervalAfter: z.coerce.number().int().min(0).max(CAMPAIGN_LONGER_AFTER_MAX).optional(),
    greaterInterval: seconds.optional(),
    variables: variables.optional(),
    sendWindowStart: hhmm.optional(),
    sendWindowEnd: hhmm.optional(),
    dailyLimit: z.coerce.number().int().min(0).max(CAMPAIGN_DAILY_LIMIT_MAX).optional(),
  })
  .refine((s) => s.sendWindowStart === undefined || s.sendWindowEnd === undefined || (s.sendWindowStart === '') === (s.sendWindowEnd === ''), {
    message: 'both ends of the send window, or neither',
    path: ['sendWindowEnd'],
  });

/** POST /campaign-settings: `{settings: {key: value}}`, each key upserted (spec 04 section 2). */
export const saveCampaignSettingsSchema = z.object({ settings: campaignSettingsValuesSchema });
export type SaveCampaignSettingsInput = z.infer<typeof saveCampaignSettingsSchema>;

/** One stored setting as GET answers it: the value is JSON text (spec 02 section 7). */
export interface CampaignSettingRow {
  id: number;
  key: string;
  value: string;
  companyId: number;
}

/** Reads GET /campaign-settings' rows into settings, with the defaults for what is missing or unreadable. */
export const campaignSettingsFromRows = (rows: { key: string; value: string }[]): CampaignSettings => {
  const out: CampaignSettings = { ...CAMPAIGN_SETTING_DEFAULTS, variables: [] };
  for (const row of rows) {
    if (!(CAMPAIGN_SETTING_KEYS as string[]).includes(row.key)) continue;
    const parsed = campaignSettingsValuesSchema.safeParse({ [row.key]: parseJsonText(row.value) });
    if (!parsed.success) continue;
    const value = (parsed.data as Record<string, unknown>)[row.key];
    if (value !== undefined) (out as Record<string, unknown>)[row.key] = value;
  }
  return out;
};

const parseJsonText = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

// ---------------------------------------------------------------------------------------------------
// Sending and reports

/** A campaign row's state: pending until its message leaves or fails for good. */
export const CAMPAIGN_SHIPPING_STATUSES = ['pending', 'sent', 'failed'] as const;
export type CampaignShippingStatus = (typeof CAMPAIGN_SHIPPING_STATUSES)[number];
/** The report's filter: a row's state, or how far a sent one got. */
export const CAMPAIGN_REPORT_FILTERS = ['pending', 'sent', 'failed', 'delivered', 'read', 'replied'] as const;
export type CampaignReportFilter = (typeof CAMPAIGN_REPORT_FILTERS)[number];

export const campaignShippingQuerySchema = z.object({
  status: z.enum(CAMPAIGN_REPORT_FILTERS).optional(),
  searchParam: textSchema.trim().max(200).optional().default(''),
  pageNumber: z.coerce.number().int().min(1).max(100000).optional().default(1),
});
export type CampaignShippingQuery = z.infer<typeof campaignShippingQuerySchema>;

/** The report's counts (GET /campaigns/{id}/report); delivered, read and replied are among the sent. */
export interface CampaignCounts {
  total: number;
  pending: number;
  sent: number;
  failed: number;
  delivered: number;
  read: number;
  replied: number;
}

export interface CampaignReportView<D = string> extends CampaignCounts {
  campaignId: number;
  status: CampaignStatus;
  startedAt: D | null;
  completedAt: D | null;
  /** When the last pending row is expected to leave at the campaign's pace (null when none is pending). */
  estimatedEndAt: D | null;
}

export interface CampaignShippingView<D = string> {
  id: number;
  campaignId: number;
  contactListItemId: number | null;
  contactId: number | null;
  name: string;
  number: string;
  /** The variant picked (1 to 5; 0 for a media-only campaign) and the text rendered for this contact. */
  variant: number;
  message: string;
  status: CampaignShippingStatus;
  error: string | null;
  plannedAt: D | null;
  sentAt: D | null;
  deliveredAt: D | null;
  readAt: D | null;
  repliedAt: D | null;
}

export interface CampaignView<D = string> {
  id: number;
  name: string;
  message1: string;
  message2: string;
  message3: string;
  message4: string;
  message5: string;
  status: CampaignStatus;
  scheduledAt: D | null;
  startedAt: D | null;
  completedAt: D | null;
  whatsappId: number | null;
  contactListId: number | null;
  /** The tag whose contacts were added (the form's tagListId). */
  tagId: number | null;
  tagListId: number | null;
  fileListId: number | null;
  companyId: number;
  mediaPath: string | null;
  mediaName: string | null;
  mediaUrl: string | null;
  /** Removed from the product (spec 04 section 1): always false. */
  confirmation: false;
  /** Whether PUT is allowed now (spec 02 section 4). */
  editable: boolean;
  whatsapp: { id: number; name: string; status: string } | null;
  contactList: { id: number; name: string } | null;
  tag: { id: number; name: string } | null;
  counts: CampaignCounts;
  createdAt: D;
  updatedAt: D;
}

/**
 * `company-{id}-campaign`: a record created or changed (the whole record), deleted (its id), or progress
 * while it runs: at most one a second per campaign, the counts and status only.
 */
export type CampaignEvent =
  | { action: 'create' | 'update'; record: CampaignView }
  | { action: 'update'; record: Pick<CampaignView, 'id' | 'status' | 'completedAt' | 'counts'> }
  | { action: 'delete'; id: number };
