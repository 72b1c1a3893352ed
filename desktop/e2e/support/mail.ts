import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  raw: string;
}

/**
 * A real SMTP server on a free local port (the `smtp-server` package), for the server's reset e-mail:
 * it takes the login it is given and keeps every message it receives.
 */
export const startMailServer = async (login = { user: 'desk', pass: 'Mail-Secret-1' }) => {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth: (auth, _session, callback) =>
      auth.username === login.user && auth.password === login.pass ? callback(null, { user: login.user }) : callback(new Error('bad credentials')),
    onData: (stream, session, callback) => {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('utf8') });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as { port: number }).port;
  return {
    port,
    received,
    /** The server settings that send through this one. */
    env: { SMTP_HOST: '127.0.0.1', SMTP_PORT: String(port), SMTP_SECURE: 'false', SMTP_USER: login.user, SMTP_PASS: login.pass, SMTP_FROM: 'Atrium <no-reply@atrium.test>' },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};

/** The 6-digit code of a reset mail (quoted-printable soft line breaks undone). */
export const resetCodeOf = (raw: string): string | null => /code is (\d{6})/.exec(raw.replace(/=\r?\n/g, ''))?.[1] ?? null;
