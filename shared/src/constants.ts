/** Business constants of spec 01 section 9 and spec 02 section 9. */
export const APP_VERSION = '8.0.1';
export const LANGUAGES = ['pt', 'en', 'es'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';
export const FALLBACK_LANGUAGE: Language = 'pt';

export const RECURRENCE_MONTHS = {
  MENSAL: 1,
  BIMESTRAL: 2,
  TRIMESTRAL: 3,
  SEMESTRAL: 6,
  ANUAL: 12,
} as const;
export type Recurrence = keyof typeof RECURRENCE_MONTHS;
export const RECURRENCES = Object.keys(RECURRENCE_MONTHS) as Recurrence[];

export const SIGNUP_TRIAL_DAYS = 3;
export const SUBSCRIPTION_WARNING_DAYS = 5;

export const WEEKDAYS = [
  { weekday: 'Segunda-feira', weekdayEn: 'monday' },
  { weekday: 'Terça-feira', weekdayEn: 'tuesday' },
  { weekday: 'Quarta-feira', weekdayEn: 'wednesday' },
  { weekday: 'Quinta-feira', weekdayEn: 'thursday' },
  { weekday: 'Sexta-feira', weekdayEn: 'friday' },
  { weekday: 'Sábado', weekdayEn: 'saturday' },
  { weekday: 'Domingo', weekdayEn: 'sunday' },
] as const;
export type WeekdayEn = (typeof WEEKDAYS)[number]['weekdayEn'];

export const PAGE_SIZE = {
  tickets: 40,
  messages: 20,
  contacts: 30,
  users: 20,
  companies: 20,
  plans: 20,
  helps: 20,
  schedules: 20,
} as const;

/** A ticket's lastMessage when its latest message was deleted: the lists show their deleted marker. */
export const DELETED_MESSAGE_PREVIEW = '🚫';

export const SOCKET_PING_MS = 18000;
export const PRESENCE_PING_MS = 300000;
export const TOAST_ERROR_MS = 2000;
export const NOTIFICATION_CLOSE_MS = 3000;
export const AUDIO_MIN_BYTES = 10000;
export const DASHBOARD_PERIODS = [0, 3, 7, 15, 30, 60, 90] as const;
export const RATING_MAX = 3;
export const CONNECTION_DEFAULTS = { maxUseBotQueues: 3, provider: 'beta' } as const;
