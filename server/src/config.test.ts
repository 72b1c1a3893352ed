import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, keptSecret, loadConfig } from './config.js';

let dataDir: string;
beforeEach(() => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'atrium-config-'));
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

const load = (env: Record<string, string | undefined> = {}) => loadConfig({ DATA_DIR: dataDir, ...env });

const failure = (env: Record<string, string | undefined>): ConfigError => {
  try {
    load(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return err as ConfigError;
  }
  throw new Error(`accepted ${JSON.stringify(env)}`);
};

describe('loadConfig defaults', () => {
  it('listens on 8080 on every interface, with development settings', () => {
    const config = load();
    expect(config).toMatchObject({
      env: 'development',
      port: 8080,
      host: '0.0.0.0',
      corsOrigins: [],
      channelSandbox: true,
      logLevel: 'info',
      accessTokenTtl: 900,
      refreshTokenTtl: 7 * 86400,
      bodyLimitKb: 1024,
      defaultTimezone: 'America/Sao_Paulo',
      embeddedPgPort: 54329,
    });
    expect(config.databaseUrl).toBeUndefined();
    expect(config.mongodbUrl).toBeUndefined();
    expect(config.webDir).toBeUndefined();
  });

  it('resolves the default DATA_DIR ./data against the working directory and creates it', () => {
    const cwd = process.cwd();
    process.chdir(dataDir);
    try {
      const config = loadConfig({});
      expect(config.dataDir).toBe(path.join(realpathSync(dataDir), 'data'));
      expect(path.isAbsolute(config.dataDir)).toBe(true);
      expect(statSync(config.dataDir).isDirectory()).toBe(true);
    } finally {
      process.chdir(cwd);
    }
  });

  it('resolves a relative DATA_DIR and treats empty variables as unset', () => {
    const config = load({ PORT: '', CORS_ORIGINS: '', DATA_DIR: path.relative(process.cwd(), path.join(dataDir, 'nested')) });
    expect(config.dataDir).toBe(path.join(dataDir, 'nested'));
    expect(config.port).toBe(8080);
  });

  it('keeps the sandbox channel off in production unless asked for', () => {
    expect(load({ NODE_ENV: 'production' }).channelSandbox).toBe(false);
    expect(load({ NODE_ENV: 'production', CHANNEL_SANDBOX: 'true' }).channelSandbox).toBe(true);
    expect(load({ NODE_ENV: 'test', CHANNEL_SANDBOX: 'false' }).channelSandbox).toBe(false);
  });
});

describe('loadConfig values', () => {
  it('reads the values given', () => {
    const config = load({
      PORT: '3000',
      HOST: '127.0.0.1',
      DATABASE_URL: 'postgresql://u:p@db:5432/atrium',
      MONGODB_URL: 'mongodb://mongo:27017/agenda',
      CORS_ORIGINS: 'https://app.example.com, http://localhost:5173',
      ADMIN_EMAIL: 'root@example.com',
      ADMIN_PASSWORD: 'long-enough',
      ACCESS_TOKEN_TTL: '600',
      DEFAULT_TIMEZONE: 'Europe/Lisbon',
      WEB_DIR: dataDir,
    });
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      databaseUrl: 'postgresql://u:p@db:5432/atrium',
      mongodbUrl: 'mongodb://mongo:27017/agenda',
      corsOrigins: ['https://app.example.com', 'http://localhost:5173'],
      adminEmail: 'root@example.com',
      adminPassword: 'long-enough',
      accessTokenTtl: 600,
      defaultTimezone: 'Europe/Lisbon',
      webDir: dataDir,
    });
    expect(load({ PORT: '0' }).port).toBe(0);
    // Origins are kept as browsers send them.
    expect(load({ CORS_ORIGINS: 'https://App.Example.com:443,http://localhost:5173' }).corsOrigins).toEqual([
      'https://app.example.com',
      'http://localhost:5173',
    ]);
    expect(load({ DATABASE_URL: 'postgres://localhost/x' }).databaseUrl).toBe('postgres://localhost/x');
  });
});

describe('loadConfig refuses bad values with a ConfigError naming the variable', () => {
  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['PORT', '80.5'],
    ['PORT', '-1'],
    ['DATABASE_URL', 'mysql://x'],
    ['DATABASE_URL', 'x'],
    ['MONGODB_URL', 'http://mongo'],
    ['ADMIN_PASSWORD', 'short'],
    ['ADMIN_EMAIL', 'not-an-email'],
    ['JWT_SECRET', 'too-short'],
    ['JWT_REFRESH_SECRET', 'too-short'],
    ['NODE_ENV', 'staging'],
    ['LOG_LEVEL', 'verbose'],
    ['ACCESS_TOKEN_TTL', '5'],
    ['BODY_LIMIT_KB', 'lots'],
    ['CHANNEL_SANDBOX', 'yes'],
    ['WA_WEB_VERSION', '2.3000'],
    ['DEFAULT_TIMEZONE', 'Mars/Olympus'],
    ['EMBEDDED_PG_PORT', '0'],
  ])('%s=%s', (name, value) => {
    const err = failure({ [name]: value });
    expect(err.message).toContain(name);
    expect(err.name).toBe('ConfigError');
    // The message never repeats a secret's value.
    if (/PASSWORD|SECRET/.test(name)) expect(err.message).not.toContain(value);
  });

  it.each(['*', 'https://app.example.com/', 'app.example.com', 'https://*.example.com', 'ftp://x.example.com', 'https://ok.example.com,*'])(
    'CORS_ORIGINS=%s',
    (value) => {
      const err = failure({ CORS_ORIGINS: value });
      expect(err.message).toContain('CORS_ORIGINS');
    },
  );

  it('names the first bad variable in one line', () => {
    const err = failure({ PORT: 'abc', CORS_ORIGINS: '*' });
    expect(err.message).not.toContain('\n');
    expect(err.message).toMatch(/PORT|CORS_ORIGINS/);
  });
});

describe('JWT secrets', () => {
  it('are generated once, kept in DATA_DIR with owner-only access, and the same on the next load', () => {
    const first = load();
    expect(first.jwtSecret.length).toBeGreaterThanOrEqual(32);
    expect(first.jwtRefreshSecret.length).toBeGreaterThanOrEqual(32);
    expect(first.jwtSecret).not.toBe(first.jwtRefreshSecret);
    const file = path.join(dataDir, 'secrets', 'jwt-secret');
    expect(readFileSync(file, 'utf8').trim()).toBe(first.jwtSecret);
    expect(statSync(file).mode & 0o077).toBe(0);
    const second = load();
    expect(second.jwtSecret).toBe(first.jwtSecret);
    expect(second.jwtRefreshSecret).toBe(first.jwtRefreshSecret);
  });

  it('differ between data directories', () => {
    const other = mkdtempSync(path.join(tmpdir(), 'atrium-config-'));
    try {
      expect(loadConfig({ DATA_DIR: other }).jwtSecret).not.toBe(load().jwtSecret);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  it('come from the environment when given, and then nothing is written', () => {
    const config = load({ JWT_SECRET: 'a'.repeat(40), JWT_REFRESH_SECRET: 'b'.repeat(40) });
    expect(config.jwtSecret).toBe('a'.repeat(40));
    expect(config.jwtRefreshSecret).toBe('b'.repeat(40));
    expect(existsSync(path.join(dataDir, 'secrets', 'jwt-secret'))).toBe(false);
  });

  it('replace a kept secret that is empty or too short (a crash mid-write) instead of signing with it', () => {
    load();
    const file = path.join(dataDir, 'secrets', 'jwt-secret');
    writeFileSync(file, '');
    const config = load();
    expect(config.jwtSecret.length).toBeGreaterThanOrEqual(32);
    expect(load().jwtSecret).toBe(config.jwtSecret);
    writeFileSync(file, 'short\n');
    expect(load().jwtSecret.length).toBeGreaterThanOrEqual(32);
  });

  it('keptSecret trims what it reads', () => {
    const secret = keptSecret(dataDir, 'other');
    writeFileSync(path.join(dataDir, 'secrets', 'other'), `${secret}\n`);
    expect(keptSecret(dataDir, 'other')).toBe(secret);
  });
});

describe('payment provider', () => {
  const efi = () => {
    const certificate = path.join(dataDir, 'efi.p12');
    writeFileSync(certificate, 'not checked here');
    return { EFI_CLIENT_ID: 'Client_Id_1', EFI_CLIENT_SECRET: 'Client_Secret_1', EFI_CERTIFICATE: certificate, EFI_PIX_KEY: 'pix@example.com' };
  };

  it('is the sandbox bank where the sandbox channel is on, and nobody in production', () => {
    expect(load().payment.provider).toBe('sandbox');
    expect(load({ NODE_ENV: 'production' }).payment.provider).toBeNull();
    expect(load({ NODE_ENV: 'production', CHANNEL_SANDBOX: 'true' }).payment.provider).toBe('sandbox');
    expect(load({ NODE_ENV: 'production', PAYMENT_SANDBOX: 'true' }).payment.provider).toBe('sandbox');
    expect(load({ CHANNEL_SANDBOX: 'true', PAYMENT_SANDBOX: 'false' }).payment.provider).toBeNull();
  });

  it('is Efí when its four variables are set, in production mode by default in production', () => {
    const env = efi();
    const config = load({ NODE_ENV: 'production', ...env, PUBLIC_URL: 'https://desk.example.com/' });
    expect(config.payment).toMatchObject({
      provider: 'efi',
      publicUrl: 'https://desk.example.com',
      efi: { clientId: 'Client_Id_1', clientSecret: 'Client_Secret_1', certificate: env.EFI_CERTIFICATE, pixKey: 'pix@example.com', sandbox: false },
    });
    // Efí wins over the sandbox bank; its homologation API outside production or when asked for.
    expect(load(env).payment).toMatchObject({ provider: 'efi', efi: { sandbox: true } });
    expect(load({ NODE_ENV: 'production', ...env, EFI_SANDBOX: 'true' }).payment.efi?.sandbox).toBe(true);
  });

  it('refuses a half-configured Efí, naming the missing variable, and a certificate that is not there', () => {
    const env = efi();
    for (const name of ['EFI_CLIENT_ID', 'EFI_CLIENT_SECRET', 'EFI_CERTIFICATE', 'EFI_PIX_KEY'] as const) {
      const err = failure({ ...env, [name]: undefined });
      expect(err.message).toContain(name);
      expect(err.message).not.toContain('Client_Secret_1');
    }
    expect(failure({ ...env, EFI_CERTIFICATE: path.join(dataDir, 'missing.p12') }).message).toContain('EFI_CERTIFICATE');
  });

  it('keeps a generated webhook secret in DATA_DIR unless PAYMENT_WEBHOOK_SECRET is given', () => {
    const first = load().payment.webhookSecret;
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(readFileSync(path.join(dataDir, 'secrets', 'payment-webhook-secret'), 'utf8').trim()).toBe(first);
    expect(load().payment.webhookSecret).toBe(first);
    expect(load({ PAYMENT_WEBHOOK_SECRET: 'w'.repeat(40) }).payment.webhookSecret).toBe('w'.repeat(40));
  });

  it.each([
    ['PAYMENT_SANDBOX', 'yes'],
    ['EFI_SANDBOX', '1'],
    ['PAYMENT_WEBHOOK_SECRET', 'too-short'],
    ['PUBLIC_URL', 'desk.example.com'],
    ['PUBLIC_URL', 'ftp://desk.example.com'],
  ])('refuses %s=%s', (name, value) => {
    const err = failure({ [name]: value });
    expect(err.message).toContain(name);
    if (name.includes('SECRET')) expect(err.message).not.toContain(value);
  });
});

describe('reset e-mail (SMTP)', () => {
  it('is off without SMTP_HOST', () => {
    expect(load().mail).toBeUndefined();
  });

  it('reads host, port, credentials, sender and TLS; the port decides TLS unless SMTP_SECURE says', () => {
    const config = load({ SMTP_HOST: 'smtp.example.com', SMTP_USER: 'desk', SMTP_PASS: 'Mail-Secret-1', SMTP_FROM: 'Atrium <desk@example.com>' });
    expect(config.mail).toEqual({ host: 'smtp.example.com', port: 587, secure: false, user: 'desk', pass: 'Mail-Secret-1', from: 'Atrium <desk@example.com>' });
    expect(load({ SMTP_HOST: 'h', SMTP_FROM: 'a@b.co', SMTP_PORT: '465' }).mail).toMatchObject({ port: 465, secure: true });
    expect(load({ SMTP_HOST: 'h', SMTP_FROM: 'a@b.co', SMTP_SECURE: 'true' }).mail).toMatchObject({ port: 465, secure: true });
    expect(load({ SMTP_HOST: 'h', SMTP_FROM: 'a@b.co', SMTP_PORT: '2525', SMTP_SECURE: 'false' }).mail).toMatchObject({ port: 2525, secure: false });
  });

  it('refuses a half-done set-up, naming the variable and never the password', () => {
    expect(failure({ SMTP_USER: 'desk' }).message).toContain('SMTP_HOST');
    expect(failure({ SMTP_HOST: 'h' }).message).toContain('SMTP_FROM');
    const err = failure({ SMTP_HOST: 'h', SMTP_FROM: 'a@b.co', SMTP_PASS: 'Mail-Secret-1' });
    expect(err.message).toContain('SMTP_USER');
    expect(err.message).not.toContain('Mail-Secret-1');
    expect(failure({ SMTP_HOST: 'h', SMTP_FROM: 'a@b.co', SMTP_SECURE: 'yes' }).message).toContain('SMTP_SECURE');
    expect(failure({ SMTP_HOST: 'h', SMTP_FROM: 'a@b.co', SMTP_PORT: '99999' }).message).toContain('SMTP_PORT');
  });
});

describe('media storage', () => {
  it('is a directory by default, DATA_DIR/media unless MEDIA_DIR names a shared one', () => {
    expect(load().media).toEqual({ storage: 'local', dir: path.join(realpathSync(dataDir), 'media') });
    expect(load({ MEDIA_DIR: path.join(dataDir, 'shared') }).media).toEqual({ storage: 'local', dir: path.join(realpathSync(dataDir), 'shared') });
  });

  it('reads the bucket, region, endpoint, keys, path style and prefix of MEDIA_STORAGE=s3', () => {
    const env = { MEDIA_STORAGE: 's3', MEDIA_S3_BUCKET: 'atrium-media' };
    expect(load(env).media).toEqual({
      storage: 's3',
      s3: { bucket: 'atrium-media', region: 'us-east-1', forcePathStyle: false, prefix: '', endpoint: undefined, accessKeyId: undefined, secretAccessKey: undefined },
    });
    const full = load({
      ...env,
      MEDIA_S3_REGION: 'sa-east-1',
      MEDIA_S3_ENDPOINT: 'https://minio.example.com:9000',
      MEDIA_S3_ACCESS_KEY_ID: 'AKIA-TEST',
      MEDIA_S3_SECRET_ACCESS_KEY: 'S3-Secret-Value',
      MEDIA_S3_PREFIX: 'desk/prod',
    }).media;
    // An endpoint of its own means an S3-compatible service: the bucket goes in the path unless said otherwise.
    expect(full).toEqual({
      storage: 's3',
      s3: {
        bucket: 'atrium-media',
        region: 'sa-east-1',
        endpoint: 'https://minio.example.com:9000',
        accessKeyId: 'AKIA-TEST',
        secretAccessKey: 'S3-Secret-Value',
        forcePathStyle: true,
        prefix: 'desk/prod/',
      },
    });
    expect(load({ ...env, MEDIA_S3_ENDPOINT: 'http://127.0.0.1:9000', MEDIA_S3_FORCE_PATH_STYLE: 'false' }).media).toMatchObject({ s3: { forcePathStyle: false } });
    expect(load({ ...env, MEDIA_S3_PREFIX: 'atrium/' }).media).toMatchObject({ s3: { prefix: 'atrium/' } });
  });

  it('refuses a half-done or mixed set-up and bad values, naming the variable and never the secret', () => {
    expect(failure({ MEDIA_STORAGE: 'nfs' }).message).toContain('MEDIA_STORAGE');
    expect(failure({ MEDIA_STORAGE: 's3' }).message).toContain('MEDIA_S3_BUCKET');
    expect(failure({ MEDIA_S3_BUCKET: 'b-1' }).message).toContain('MEDIA_STORAGE=s3');
    expect(failure({ MEDIA_STORAGE: 's3', MEDIA_S3_BUCKET: 'b-1', MEDIA_DIR: '/srv/media' }).message).toContain('MEDIA_DIR');
    const err = failure({ MEDIA_STORAGE: 's3', MEDIA_S3_BUCKET: 'b-1', MEDIA_S3_SECRET_ACCESS_KEY: 'S3-Secret-Value' });
    expect(err.message).toContain('MEDIA_S3_ACCESS_KEY_ID');
    expect(err.message).not.toContain('S3-Secret-Value');
    const stray = failure({ MEDIA_S3_SECRET_ACCESS_KEY: 'S3-Secret-Value' });
    expect(stray.message).toContain('MEDIA_S3_SECRET_ACCESS_KEY');
    expect(stray.message).not.toContain('S3-Secret-Value');
    for (const [name, value] of [
      ['MEDIA_S3_BUCKET', 'a/b'],
      ['MEDIA_S3_ENDPOINT', 'ftp://x'],
      ['MEDIA_S3_REGION', 'Sa East'],
      ['MEDIA_S3_FORCE_PATH_STYLE', 'yes'],
      ['MEDIA_S3_PREFIX', '../other'],
      ['MEDIA_S3_PREFIX', '/abs'],
      ['MEDIA_S3_PREFIX', 'a//b'],
    ]) {
      expect(failure({ MEDIA_STORAGE: 's3', MEDIA_S3_BUCKET: 'b-1', [name]: value }).message, `${name}=${value}`).toContain(name);
    }
  });
});
