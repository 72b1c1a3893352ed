import nodemailer from 'nodemailer';
import type { MailConfig } from '../config.js';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

/** Sends e-mail through the configured SMTP server; `enabled` is false when none is configured. */
export interface Mailer {
  enabled: boolean;
  send(message: MailMessage): Promise<void>;
  close(): void;
}

export const createMailer = (config: MailConfig | undefined): Mailer => {
  if (!config) {
    return {
      enabled: false,
      send: async () => {
        throw new Error('e-mail is not configured');
      },
      close: () => {},
    };
  }
  const transport = nodemailer.createTransport({
    host: config.host,
    port: config.port,
    secure: config.secure,
    auth: config.user ? { user: config.user, pass: config.pass } : undefined,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 20_000,
  });
  return {
    enabled: true,
    async send(message) {
      await transport.sendMail({ from: config.from, ...message });
    },
    close: () => transport.close(),
  };
};
