/**
 * Company settings (spec 01 section 3, spec 03 section 12): the only keys a company has,
 * each with its allowed values and the default created for every new company.
 */
const enabledDisabled = ['enabled', 'disabled'] as const;

export const SETTINGS = {
  userRating: { values: enabledDisabled, default: 'disabled' },
  scheduleType: { values: ['disabled', 'company', 'queue'], default: 'disabled' },
  call: { values: enabledDisabled, default: 'disabled' },
  CheckMsgIsGroup: { values: enabledDisabled, default: 'enabled' },
  sendGreetingAccepted: { values: enabledDisabled, default: 'disabled' },
  sendMsgTransfTicket: { values: enabledDisabled, default: 'disabled' },
  sendGreetingMessageOneQueues: { values: enabledDisabled, default: 'disabled' },
  chatBotType: { values: ['text', 'button', 'list'], default: 'text' },
  // "typing…" (or "recording…" before a voice note) shown to the customer before an agent's reply.
  sendTypingPresence: { values: enabledDisabled, default: 'disabled' },
  campaignsEnabled: { values: ['true', 'false'], default: 'true' },
  // The prompt behind the agents' "Suggest a reply" and "Summarise" where the ticket's queue has none
  // (a prompt id, '' for none).
  aiAssistPromptId: { values: null, default: '' },
  // On a transfer, the AI's summary of the conversation is added to the ticket as an internal note.
  aiSummaryOnTransfer: { values: enabledDisabled, default: 'disabled' },
  // How many sessions a user may hold at once (desktop and phone together); 1 is the spec's behaviour: a
  // new login ends the others. Over the limit, a login ends the least recently used ones.
  sessionsPerUser: { values: ['1', '2', '3', '4', '5'], default: '1' },
  // Days a received media file is kept (then removed, its message says so); 'forever' keeps them.
  mediaRetentionDays: { values: ['forever', '30', '90', '180', '365', '730'], default: 'forever' },
  // The payment-provider token: a secret, shown to admins only and never logged.
  asaas: { values: null, default: '', secret: true },
} as const satisfies Record<string, { values: readonly string[] | null; default: string; secret?: boolean }>;

export type SettingKey = keyof typeof SETTINGS;
export const SETTING_KEYS = Object.keys(SETTINGS) as SettingKey[];

export const isSettingKey = (key: string): key is SettingKey =>
  Object.prototype.hasOwnProperty.call(SETTINGS, key);

export const isSecretSetting = (key: string): boolean =>
  isSettingKey(key) && 'secret' in SETTINGS[key] && SETTINGS[key].secret === true;

export const isValidSettingValue = (key: SettingKey, value: string): boolean => {
  const allowed = SETTINGS[key].values as readonly string[] | null;
  return allowed === null ? value.length <= 500 : allowed.includes(value);
};

export interface Setting {
  key: SettingKey;
  value: string;
}
