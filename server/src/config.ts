import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

/** Every setting, parsed and validated once. A bad value stops start-up with one line naming it. */
const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
    .optional(),
  MONGODB_URL: z
    .string()
    .regex(/^mongodb(\+srv)?:\/\//, 'must be a mongodb:// URL')
    .optional(),
  ADMIN_EMAIL: z.email().optional(),
  ADMIN_PASSWORD: z.string().min(8, 'must have at least 8 characters').optional(),
  JWT_SECRET: z.string().min(32, 'must have at least 32 characters').optional(),
  JWT_REFRESH_SECRET: z.string().min(32, 'must have at least 32 characters').optional(),
  CORS_ORIGINS: z.string().default(''),
  CHANNEL_SANDBOX: z.enum(['true', 'false']).optional(),
  /**
   * The WhatsApp Web version Baileys announces ("2.3000.1023456789"), when the one fetched at start (or
   * bundled) is refused; read by the Baileys provider, checked here so a typo stops the start.
   */
  WA_WEB_VERSION: z.string().regex(/^\d+\.\d+\.\d+$/).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  ACCESS_TOKEN_TTL: z.coerce.number().int().min(30).max(86400).default(900),
  REFRESH_TOKEN_TTL: z.coerce.number().int().min(300).max(90 * 86400).default(7 * 86400),
  BODY_LIMIT_KB: z.coerce.number().int().min(1).max(102400).default(1024),
  /** The largest media a customer sends that is downloaded (MB; fractions allowed); a larger one is marked too large. */
  MEDIA_DOWNLOAD_MAX_MB: z.coerce.number().positive().max(4096).default(100),
  /** Where media files live: a directory (MEDIA_DIR) or an S3-compatible bucket (MEDIA_S3_*). */
  MEDIA_STORAGE: z.enum(['local', 's3']).default('local'),
  /** The media directory; a volume shared by every server process on one host. Defaults to DATA_DIR/media. */
  MEDIA_DIR: z.string().min(1).optional(),
  MEDIA_S3_BUCKET: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{1,254}$/, 'must be a bucket name')
    .optional(),
  MEDIA_S3_REGION: z.string().regex(/^[a-z0-9-]{1,50}$/, 'must be a region name like eu-west-1').optional(),
  /** An S3-compatible service (MinIO, R2, Spaces...); unset: AWS. */
  MEDIA_S3_ENDPOINT: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
  MEDIA_S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  MEDIA_S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  MEDIA_S3_FORCE_PATH_STYLE: z.enum(['true', 'false']).optional(),
  /** Put before every key ("atrium/"), so one bucket can serve several installs. */
  MEDIA_S3_PREFIX: z
    .string()
    .max(200)
    .regex(/^[A-Za-z0-9_.-]+(\/[A-Za-z0-9_.-]+)*\/?$/, 'must be letters, digits, "_", ".", "-" and "/" between words')
    .refine((p) => !p.split('/').some((part) => part === '.' || part === '..'), 'must not have "." or ".." parts')
    .optional(),
  DEFAULT_TIMEZONE: z.string().default('America/Sao_Paulo'),
  LOGIN_MAX_PER_IP: z.coerce.number().int().min(1).default(50),
  LOGIN_MAX_PER_EMAIL: z.coerce.number().int().min(1).default(10),
  SIGNUP_MAX_PER_IP: z.coerce.number().int().min(1).default(10),
  /** Messages API calls per connection token and minute: sends, and status reads. */
  API_SEND_MAX_PER_MINUTE: z.coerce.number().int().min(1).default(60),
  API_STATUS_MAX_PER_MINUTE: z.coerce.number().int().min(1).default(600),
  EMBEDDED_PG_PORT: z.coerce.number().int().min(1).max(65535).default(54329),
  /** The renderer's web build to serve; defaults to the monorepo's desktop/dist/renderer. */
  WEB_DIR: z.string().min(1).optional(),
  /** The simulated Pix bank; follows CHANNEL_SANDBOX when unset. */
  PAYMENT_SANDBOX: z.enum(['true', 'false']).optional(),
  PAYMENT_WEBHOOK_SECRET: z.string().min(32, 'must have at least 32 characters').optional(),
  /** The address the payment provider reaches this server at (its webhook). */
  PUBLIC_URL: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
  EFI_CLIENT_ID: z.string().min(1).optional(),
  EFI_CLIENT_SECRET: z.string().min(1).optional(),
  /** Path of the .p12 certificate Efí issues for the Pix API (mTLS). */
  EFI_CERTIFICATE: z.string().min(1).optional(),
  EFI_PIX_KEY: z.string().min(1).max(77).optional(),
  EFI_SANDBOX: z.enum(['true', 'false']).optional(),
  /** SMTP for the password-reset e-mail; without SMTP_HOST reset e-mail is off. */
  SMTP_HOST: z.string().min(1).optional(),
  SMTP_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  SMTP_USER: z.string().min(1).optional(),
  SMTP_PASS: z.string().min(1).optional(),
  SMTP_FROM: z.string().min(3).optional(),
  SMTP_SECURE: z.enum(['true', 'false']).optional(),
  RESET_MAX_PER_IP: z.coerce.number().int().min(1).default(20),
  RESET_MAX_PER_EMAIL: z.coerce.number().int().min(1).default(5),
  /** Behind a reverse proxy (several servers behind a load balancer): the client's address is the last of X-Forwarded-For. */
  TRUST_PROXY: z.enum(['true', 'false']).default('false'),
  /** How long a connection's lease lasts unrenewed: how long a dead process's connections stay down. */
  CONNECTION_LEASE_TTL_MS: z.coerce.number().int().min(1_000).max(600_000).default(30_000),
  /** A linked number down longer than this (minutes) is reported to the company's admins (realtime, e-mail when SMTP is set). */
  CONNECTION_DOWN_ALERT_MINUTES: z.coerce.number().int().min(1).max(10_080).default(15),
  /** Days the provider's own message objects (retries, quotes, deletes, media downloads) are kept; 0: forever. */
  RAW_MESSAGE_RETENTION_DAYS: z.coerce.number().int().min(0).max(3_650).default(30),
  /** Days a contact's signal session (or a group's sender key) may stay unused before it is deleted; 0: kept forever. */
  SIGNAL_KEY_IDLE_DAYS: z.coerce.number().int().min(0).max(3_650).default(90),
  /** A running campaign's contacts whose messages wait in the outbox at once; the rest are queued as those go. */
  CAMPAIGN_OUTBOX_WINDOW: z.coerce.number().int().min(1).max(100_000).default(2_000),
  /** How long a command for a session another process runs waits for that process (ERR_WAPP_OWNER_UNREACHABLE after). */
  SESSION_COMMAND_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  /** Encrypts third-party secrets at rest (AI keys, Dialogflow credentials, webhook secrets); kept in DATA_DIR when unset. */
  INTEGRATIONS_SECRET_KEY: z.string().min(32, 'must have at least 32 characters').optional(),
  /** Integrations may call private and loopback addresses (local set-ups and tests only). */
  INTEGRATIONS_ALLOW_PRIVATE_NETWORK: z.enum(['true', 'false']).optional(),
  /** Dialogflow's REST endpoint (http(s)://host[:port]); Google's when unset. */
  DIALOGFLOW_API_ENDPOINT: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).optional(),
  /** Seconds between the attempts of a webhook delivery, comma-separated. */
  WEBHOOK_RETRY_DELAYS: z
    .string()
    .regex(/^\d+(\.\d+)?(,\d+(\.\d+)?)*$/, 'must be seconds separated by commas')
    .default('5,300,1800,7200,18000'),
  /** How long an integration (Typebot, n8n, webhook, Dialogflow) may take to answer. */
  INTEGRATIONS_TIMEOUT_SECONDS: z.coerce.number().positive().max(300).default(15),
  /** How long the AI provider may take to answer. */
  AI_TIMEOUT_SECONDS: z.coerce.number().positive().max(600).default(30),
});

/** Efí (Gerencianet) Pix API v2 credentials. */
export interface EfiConfig {
  clientId: string;
  clientSecret: string;
  /** Absolute path of the .p12 certificate. */
  certificate: string;
  pixKey: string;
  /** Efí's homologation environment instead of production. */
  sandbox: boolean;
}

export interface PaymentConfig {
  /** Who charges POST /subscription: Efí when configured, else the sandbox bank when enabled, else nobody. */
  provider: 'efi' | 'sandbox' | null;
  /** Authenticates the payment webhook (an HMAC of it travels in the webhook URL's query). */
  webhookSecret: string;
  /** Without a trailing slash. */
  publicUrl?: string;
  efi?: EfiConfig;
}

/** An S3-compatible bucket for media. */
export interface S3MediaConfig {
  bucket: string;
  region: string;
  /** An S3-compatible service's URL; absent: AWS. */
  endpoint?: string;
  /** Absent: the SDK's own chain (AWS_* variables, an instance or task role). Never logged. */
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle: boolean;
  /** Put before `{companyId}/` in every key: '' or ending in '/'. */
  prefix: string;
}

export type MediaConfig = { storage: 'local'; dir: string } | { storage: 's3'; s3: S3MediaConfig };

/** Where the password-reset e-mail goes out. */
export interface MailConfig {
  host: string;
  port: number;
  /** TLS from the first byte (465); otherwise STARTTLS when the server offers it. */
  secure: boolean;
  user?: string;
  pass?: string;
  from: string;
}

/** Third-party services the automation calls (AI prompts, queue integrations). */
export interface IntegrationsConfig {
  /** The AES-256-GCM key sealing their secrets at rest (derived from INTEGRATIONS_SECRET_KEY or a kept secret). */
  secretKey: string;
  allowPrivateNetwork: boolean;
  dialogflowEndpoint?: { protocol: 'http' | 'https'; host: string; port: number };
  webhookRetryDelaysMs: number[];
  timeoutMs: number;
  aiTimeoutMs: number;
}

export interface Config {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  mongodbUrl?: string;
  adminEmail?: string;
  adminPassword?: string;
  jwtSecret: string;
  jwtRefreshSecret: string;
  corsOrigins: string[];
  channelSandbox: boolean;
  logLevel: string;
  accessTokenTtl: number;
  refreshTokenTtl: number;
  bodyLimitKb: number;
  mediaDownloadMaxBytes: number;
  media: MediaConfig;
  defaultTimezone: string;
  embeddedPgPort: number;
  loginMaxPerIp: number;
  loginMaxPerEmail: number;
  signupMaxPerIp: number;
  /** Messages API calls per connection token and minute (429 with Retry-After beyond). */
  apiSendMaxPerMinute: number;
  apiStatusMaxPerMinute: number;
  webDir?: string;
  payment: PaymentConfig;
  /** Absent: reset e-mail is off. */
  mail?: MailConfig;
  /** Password-reset requests and attempts, per IP and per e-mail, per 15 minutes. */
  resetMaxPerIp: number;
  resetMaxPerEmail: number;
  /** The client's address (rate limits) is the one the reverse proxy in front adds to X-Forwarded-For. */
  trustProxy: boolean;
  /** Several server processes on one database: a connection's lease (ms) and a forwarded session command's wait (ms). */
  connectionLeaseTtlMs: number;
  connectionDownAlertMinutes: number;
  rawMessageRetentionDays: number;
  signalKeyIdleDays: number;
  campaignOutboxWindow: number;
  sessionCommandTimeoutMs: number;
  integrations: IntegrationsConfig;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** A kept secret shorter than this is a damaged file, never a key to sign with. */
const MIN_KEPT_SECRET = 32;

/** Secrets absent from the environment are generated once and kept in DATA_DIR (never a fallback constant). */
export const keptSecret = (dataDir: string, name: string): string => {
  const file = path.join(dataDir, 'secrets', name);
  if (existsSync(file)) {
    const kept = readFileSync(file, 'utf8').trim();
    if (kept.length >= MIN_KEPT_SECRET) return kept;
  }
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const secret = randomBytes(48).toString('base64url');
  // Written aside and renamed into place, so a crash never leaves a half-written secret behind.
  const partial = `${file}.${process.pid}.tmp`;
  writeFileSync(partial, secret, { mode: 0o600 });
  renameSync(partial, file);
  return secret;
};

/** A listed CORS origin in the form browsers send it (scheme://host[:port], lower case), or null. */
const normalOrigin = (origin: string): string | null => {
  if (origin.includes('*') || !/^https?:\/\/[^/]+$/i.test(origin)) return null;
  try {
    return new URL(origin).origin;
  } catch {
    return null;
  }
};

const EFI_VARIABLES = ['EFI_CLIENT_ID', 'EFI_CLIENT_SECRET', 'EFI_CERTIFICATE', 'EFI_PIX_KEY'] as const;

/** Efí is configured by all four variables or none; a half-done set-up stops start-up naming what is missing. */
const efiConfig = (e: z.infer<typeof envSchema>): EfiConfig | undefined => {
  if (!EFI_VARIABLES.some((name) => e[name])) return undefined;
  const missing = EFI_VARIABLES.find((name) => !e[name]);
  if (missing) throw new ConfigError(`Invalid configuration: ${missing} is required when Efí is configured`);
  const certificate = path.resolve(e.EFI_CERTIFICATE!);
  if (!existsSync(certificate)) throw new ConfigError(`Invalid configuration: EFI_CERTIFICATE names no file`);
  return {
    clientId: e.EFI_CLIENT_ID!,
    clientSecret: e.EFI_CLIENT_SECRET!,
    certificate,
    pixKey: e.EFI_PIX_KEY!,
    sandbox: e.EFI_SANDBOX ? e.EFI_SANDBOX === 'true' : e.NODE_ENV !== 'production',
  };
};

const SMTP_VARIABLES = ['SMTP_PORT', 'SMTP_USER', 'SMTP_PASS', 'SMTP_FROM', 'SMTP_SECURE'] as const;

/** Mail needs SMTP_HOST and SMTP_FROM; a user needs its password. A half-done set-up stops start-up naming what is missing. */
const mailConfig = (e: z.infer<typeof envSchema>): MailConfig | undefined => {
  if (!e.SMTP_HOST) {
    const stray = SMTP_VARIABLES.find((name) => e[name] !== undefined);
    if (stray) throw new ConfigError(`Invalid configuration: SMTP_HOST is required when ${stray} is set`);
    return undefined;
  }
  if (!e.SMTP_FROM) throw new ConfigError('Invalid configuration: SMTP_FROM is required when SMTP_HOST is set');
  if (Boolean(e.SMTP_USER) !== Boolean(e.SMTP_PASS)) {
    throw new ConfigError(`Invalid configuration: ${e.SMTP_USER ? 'SMTP_PASS' : 'SMTP_USER'} is required with ${e.SMTP_USER ? 'SMTP_USER' : 'SMTP_PASS'}`);
  }
  const port = e.SMTP_PORT ?? (e.SMTP_SECURE === 'true' ? 465 : 587);
  return {
    host: e.SMTP_HOST,
    port,
    secure: e.SMTP_SECURE ? e.SMTP_SECURE === 'true' : port === 465,
    user: e.SMTP_USER,
    pass: e.SMTP_PASS,
    from: e.SMTP_FROM,
  };
};

const S3_VARIABLES = [
  'MEDIA_S3_BUCKET',
  'MEDIA_S3_REGION',
  'MEDIA_S3_ENDPOINT',
  'MEDIA_S3_ACCESS_KEY_ID',
  'MEDIA_S3_SECRET_ACCESS_KEY',
  'MEDIA_S3_FORCE_PATH_STYLE',
  'MEDIA_S3_PREFIX',
] as const;

/** A bucket needs its name, and a key its secret; settings of the other storage stop start-up (a typo would go unseen). */
const mediaConfig = (e: z.infer<typeof envSchema>, dataDir: string): MediaConfig => {
  if (e.MEDIA_STORAGE === 'local') {
    const stray = S3_VARIABLES.find((name) => e[name] !== undefined);
    if (stray) throw new ConfigError(`Invalid configuration: MEDIA_STORAGE=s3 is required when ${stray} is set`);
    return { storage: 'local', dir: path.resolve(e.MEDIA_DIR ?? path.join(dataDir, 'media')) };
  }
  if (e.MEDIA_DIR) throw new ConfigError('Invalid configuration: MEDIA_DIR is for MEDIA_STORAGE=local');
  if (!e.MEDIA_S3_BUCKET) throw new ConfigError('Invalid configuration: MEDIA_S3_BUCKET is required when MEDIA_STORAGE=s3');
  if (Boolean(e.MEDIA_S3_ACCESS_KEY_ID) !== Boolean(e.MEDIA_S3_SECRET_ACCESS_KEY)) {
    const [missing, given] = e.MEDIA_S3_ACCESS_KEY_ID
      ? ['MEDIA_S3_SECRET_ACCESS_KEY', 'MEDIA_S3_ACCESS_KEY_ID']
      : ['MEDIA_S3_ACCESS_KEY_ID', 'MEDIA_S3_SECRET_ACCESS_KEY'];
    throw new ConfigError(`Invalid configuration: ${missing} is required with ${given}`);
  }
  const prefix = e.MEDIA_S3_PREFIX ?? '';
  return {
    storage: 's3',
    s3: {
      bucket: e.MEDIA_S3_BUCKET,
      region: e.MEDIA_S3_REGION ?? 'us-east-1',
      endpoint: e.MEDIA_S3_ENDPOINT,
      accessKeyId: e.MEDIA_S3_ACCESS_KEY_ID,
      secretAccessKey: e.MEDIA_S3_SECRET_ACCESS_KEY,
      // S3-compatible services mostly want the bucket in the path; AWS wants it in the host name.
      forcePathStyle: e.MEDIA_S3_FORCE_PATH_STYLE ? e.MEDIA_S3_FORCE_PATH_STYLE === 'true' : Boolean(e.MEDIA_S3_ENDPOINT),
      prefix: prefix === '' || prefix.endsWith('/') ? prefix : `${prefix}/`,
    },
  };
};

const endpointOf = (url: string): NonNullable<IntegrationsConfig['dialogflowEndpoint']> => {
  const parsed = new URL(url);
  const protocol = parsed.protocol === 'http:' ? 'http' : 'https';
  return { protocol, host: parsed.hostname.replace(/^\[|\]$/g, ''), port: Number(parsed.port) || (protocol === 'http' ? 80 : 443) };
};

const validTimezone = (tz: string): boolean => {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
};

export const loadConfig = (env: NodeJS.ProcessEnv = process.env): Config => {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ConfigError(`Invalid configuration: ${String(issue.path[0])} ${issue.message}`);
  }
  const e = parsed.data;
  if (!validTimezone(e.DEFAULT_TIMEZONE)) {
    throw new ConfigError(`Invalid configuration: DEFAULT_TIMEZONE is not a known time zone`);
  }
  const origins = e.CORS_ORIGINS.split(',')
    .map((o) => o.trim())
    .filter(Boolean)
    .map((origin) => {
      const normal = normalOrigin(origin);
      if (!normal) {
        throw new ConfigError(`Invalid configuration: CORS_ORIGINS has "${origin}"; list origins like https://app.example.com`);
      }
      return normal;
    });
  const dataDir = path.resolve(e.DATA_DIR);
  mkdirSync(dataDir, { recursive: true });
  // A simulated phone for demos and tests; never on in production unless asked for.
  const channelSandbox = e.CHANNEL_SANDBOX ? e.CHANNEL_SANDBOX === 'true' : e.NODE_ENV !== 'production';
  const paymentSandbox = e.PAYMENT_SANDBOX ? e.PAYMENT_SANDBOX === 'true' : channelSandbox;
  const efi = efiConfig(e);
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    mongodbUrl: e.MONGODB_URL,
    adminEmail: e.ADMIN_EMAIL,
    adminPassword: e.ADMIN_PASSWORD,
    jwtSecret: e.JWT_SECRET ?? keptSecret(dataDir, 'jwt-secret'),
    jwtRefreshSecret: e.JWT_REFRESH_SECRET ?? keptSecret(dataDir, 'jwt-refresh-secret'),
    corsOrigins: origins,
    channelSandbox,
    logLevel: e.LOG_LEVEL,
    accessTokenTtl: e.ACCESS_TOKEN_TTL,
    refreshTokenTtl: e.REFRESH_TOKEN_TTL,
    bodyLimitKb: e.BODY_LIMIT_KB,
    mediaDownloadMaxBytes: Math.floor(e.MEDIA_DOWNLOAD_MAX_MB * 1024 * 1024),
    media: mediaConfig(e, dataDir),
    defaultTimezone: e.DEFAULT_TIMEZONE,
    embeddedPgPort: e.EMBEDDED_PG_PORT,
    loginMaxPerIp: e.LOGIN_MAX_PER_IP,
    loginMaxPerEmail: e.LOGIN_MAX_PER_EMAIL,
    signupMaxPerIp: e.SIGNUP_MAX_PER_IP,
    apiSendMaxPerMinute: e.API_SEND_MAX_PER_MINUTE,
    apiStatusMaxPerMinute: e.API_STATUS_MAX_PER_MINUTE,
    webDir: e.WEB_DIR ? path.resolve(e.WEB_DIR) : undefined,
    payment: {
      provider: efi ? 'efi' : paymentSandbox ? 'sandbox' : null,
      webhookSecret: e.PAYMENT_WEBHOOK_SECRET ?? keptSecret(dataDir, 'payment-webhook-secret'),
      publicUrl: e.PUBLIC_URL?.replace(/\/+$/, ''),
      efi,
    },
    mail: mailConfig(e),
    resetMaxPerIp: e.RESET_MAX_PER_IP,
    resetMaxPerEmail: e.RESET_MAX_PER_EMAIL,
    trustProxy: e.TRUST_PROXY === 'true',
    connectionLeaseTtlMs: e.CONNECTION_LEASE_TTL_MS,
    connectionDownAlertMinutes: e.CONNECTION_DOWN_ALERT_MINUTES,
    rawMessageRetentionDays: e.RAW_MESSAGE_RETENTION_DAYS,
    signalKeyIdleDays: e.SIGNAL_KEY_IDLE_DAYS,
    campaignOutboxWindow: e.CAMPAIGN_OUTBOX_WINDOW,
    sessionCommandTimeoutMs: e.SESSION_COMMAND_TIMEOUT_MS,
    integrations: {
      secretKey: e.INTEGRATIONS_SECRET_KEY ?? keptSecret(dataDir, 'integrations-key'),
      allowPrivateNetwork: e.INTEGRATIONS_ALLOW_PRIVATE_NETWORK === 'true',
      dialogflowEndpoint: e.DIALOGFLOW_API_ENDPOINT ? endpointOf(e.DIALOGFLOW_API_ENDPOINT) : undefined,
      webhookRetryDelaysMs: e.WEBHOOK_RETRY_DELAYS.split(',').map((s) => Math.round(Number(s) * 1000)),
      timeoutMs: Math.round(e.INTEGRATIONS_TIMEOUT_SECONDS * 1000),
      aiTimeoutMs: Math.round(e.AI_TIMEOUT_SECONDS * 1000),
    },
  };
};
