import { pino, type Logger } from 'pino';

export type { Logger };

/** Structured logs. Secrets and message bodies never reach them: the redact list is the safety net. */
export const createLogger = (level: string): Logger =>
  pino({
    level,
    base: { service: 'atrium' },
    redact: {
      paths: [
        'password',
        '*.password',
        'token',
        '*.token',
        'refreshToken',
        '*.refreshToken',
        'body',
        '*.body',
        'req.headers.authorization',
        'req.headers.cookie',
        'headers.authorization',
        'headers.cookie',
        'secretAccessKey',
        '*.secretAccessKey',
        '*.*.secretAccessKey',
      ],
      censor: '[redacted]',
    },
  });
