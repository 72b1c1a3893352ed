import { Writable } from 'node:stream';
import { pino } from 'pino';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTenant, connectSocket, eventually, startTestApp, type TestApp } from '../../../testing/helpers.js';

/** A real SMTP server on a free local port that keeps what it receives, with the credentials it accepts. */
const startMailServer = async () => {
  const received: { to: string[]; raw: string }[] = [];
  const waiters: (() => void)[] = [];
  const server = new SMTPServer({
    authOptional: false,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth: (auth, _session, callback) =>
      auth.username === 'desk' && auth.password === 'Mail-Secret-1' ? callback(null, { user: 'desk' }) : callback(new Error('bad credentials')),
    onData: (stream, session, callback) => {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: Buffer.concat(chunks).toString('utf8') });
        waiters.splice(0).forEach((w) => w());
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as { port: number }).port;
  /** The next mail to `to` (or one already received and not yet taken). */
  const mailTo = async (to: string, timeoutMs = 10_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const at = received.findIndex((m) => m.to.includes(to));
      if (at >= 0) return received.splice(at, 1)[0];
      if (Date.now() > deadline) throw new Error(`no mail to ${to}`);
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, deadline - Date.now());
      });
    }
  };
  return { port, received, mailTo, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
};

/** The 6-digit code of a reset mail (quoted-printable soft line breaks undone). */
const codeOf = (raw: string) => {
  const match = /code is (\d{6})/.exec(raw.replace(/=\r?\n/g, ''));
  if (!match) throw new Error(`no code in mail:\n${raw}`);
  return match[1];
};

/** Every log line the server writes, at every level, with no redaction: what must never be there. */
const capturedLogger = () => {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, callback) {
      lines.push(String(chunk));
      callback();
    },
  });
  return { lines, logger: pino({ level: 'trace' }, stream) };
};

let mail: Awaited<ReturnType<typeof startMailServer>>;
let t: TestApp;
const logs = capturedLogger();

beforeAll(async () => {
  mail = await startMailServer();
  t = await startTestApp(
    {
      SMTP_HOST: '127.0.0.1',
      SMTP_PORT: String(mail.port),
      SMTP_SECURE: 'false',
      SMTP_USER: 'desk',
      SMTP_PASS: 'Mail-Secret-1',
      SMTP_FROM: 'Atrium <no-reply@atrium.test>',
      RESET_MAX_PER_EMAIL: '4',
      RESET_MAX_PER_IP: '40',
      // The rate-limit tests send from addresses of their own (X-Forwarded-For), so that what they count
      // is only their own requests, and their spent budget never refuses another test's.
      TRUST_PROXY: 'true',
    },
    { logger: logs.logger },
  );
});
afterAll(async () => {
  await t?.stop();
  await mail?.close();
});

const requestCode = async (email: string) => {
  const res = await t.api.post(`/forgetpassword/${encodeURIComponent(email)}`);
  expect(res.status).toBe(200);
  return codeOf((await mail.mailTo(email)).raw);
};

const passwordHashOf = async (userId: number): Promise<string> =>
  (await t.app.orm.em.fork().getConnection().execute('select password_hash from users where id = ?', [userId]))[0].password_hash;

describe('POST /forgetpassword/{email}', () => {
  it('says reset e-mail is on', async () => {
    expect(await t.api.get('/forgetpassword')).toMatchObject({ status: 200, body: { emailEnabled: true } });
  });

  it('answers the same for an unknown and a known address; only the known one gets a code, and only its hash is stored', async () => {
    const a = await createTenant(t, 'Known');
    const unknown = await t.api.post('/forgetpassword/nobody-here@example.com');
    const known = await t.api.post(`/forgetpassword/${encodeURIComponent(a.agent.email)}`);
    expect(unknown.status).toBe(200);
    expect(known.status).toBe(200);
    expect(unknown.body).toEqual(known.body);
    const message = await mail.mailTo(a.agent.email);
    expect(message.raw).toMatch(/From: Atrium <no-reply@atrium\.test>/);
    const code = codeOf(message.raw);
    expect(mail.received.filter((m) => m.to.includes('nobody-here@example.com'))).toEqual([]);
    const rows = await t.app.orm.em.fork().getConnection().execute('select * from password_resets where user_id = ?', [a.agent.id]);
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(code);
    const minutes = (new Date(rows[0].expires_at).getTime() - Date.now()) / 60000;
    expect(minutes).toBeGreaterThan(14);
    expect(minutes).toBeLessThanOrEqual(15);
  });

  it('refuses a malformed address with 400', async () => {
    expect(await t.api.post('/forgetpassword/not-an-email')).toMatchObject({ status: 400, body: { error: 'ERR_VALIDATION' } });
  });
});

describe('POST /resetpasswords', () => {
  it('sets the new password with the code, once; the old password, sessions, refresh tokens and sockets end', async () => {
    const a = await createTenant(t, 'Reset');
    const login = await t.api.login(a.agent.email, a.agent.password);
    const socket = await connectSocket(t.app.url, login.token);
    const closed = new Promise<void>((resolve) => socket.once('disconnect', () => resolve()));
    const code = await requestCode(a.agent.email);

    const res = await t.api.post('/resetpasswords', { email: a.agent.email, token: code, newPassword: 'New-Passw0rd' });
    expect(res).toMatchObject({ status: 200, body: { message: 'Password updated' } });
    await closed;

    expect(await t.api.get('/auth/me', login.token)).toMatchObject({ status: 401, body: { error: 'ERR_SESSION_EXPIRED' } });
    expect((await t.api.post('/auth/refresh_token', { refreshToken: login.refreshToken })).status).toBe(401);
    expect((await t.api.post('/auth/login', { email: a.agent.email, password: a.agent.password })).status).toBe(401);
    expect((await t.api.post('/auth/login', { email: a.agent.email, password: 'New-Passw0rd' })).status).toBe(200);
    // Single use.
    const again = await t.api.post('/resetpasswords', { email: a.agent.email, token: code, newPassword: 'Other-Passw0rd' });
    expect(again).toMatchObject({ status: 400, body: { error: 'ERR_INVALID_RESET_CODE' } });
  });

  it('refuses a wrong code, an earlier code replaced by a newer one, and a code of another address', async () => {
    const a = await createTenant(t, 'Replaced');
    const before = await passwordHashOf(a.admin.id);
    const first = await requestCode(a.admin.email);
    const second = await requestCode(a.admin.email);
    const wrong = second === '000000' ? '000001' : '000000';
    for (const token of [wrong, ...(first !== second ? [first] : [])]) {
      const res = await t.api.post('/resetpasswords', { email: a.admin.email, token, newPassword: 'New-Passw0rd' });
      expect(res).toMatchObject({ status: 400, body: { error: 'ERR_INVALID_RESET_CODE' } });
    }
    const other = await t.api.post('/resetpasswords', { email: 'nobody-here@example.com', token: second, newPassword: 'New-Passw0rd' });
    expect(other).toMatchObject({ status: 400, body: { error: 'ERR_INVALID_RESET_CODE' } });
    expect(await passwordHashOf(a.admin.id)).toBe(before);
    // The newest code still works after those misses.
    const ok = await t.api.post('/resetpasswords', { email: a.admin.email, token: second, newPassword: 'Admin-Passw0rd-2' });
    expect(ok.status).toBe(200);
  });

  it('refuses an expired code', async () => {
    const b = await createTenant(t, 'Expiry');
    const code = await requestCode(b.agent.email);
    await t.app.orm.em.fork().getConnection().execute(`update password_resets set expires_at = now() - interval '1 second' where user_id = ?`, [b.agent.id]);
    const res = await t.api.post('/resetpasswords', { email: b.agent.email, token: code, newPassword: 'New-Passw0rd' });
    expect(res).toMatchObject({ status: 400, body: { error: 'ERR_INVALID_RESET_CODE' } });
  });

  it('drops a code after 5 wrong guesses, even the right one is refused then', async () => {
    const b = await createTenant(t, 'Guess');
    const code = await requestCode(b.agent.email);
    const wrong = code === '111111' ? '222222' : '111111';
    for (let i = 0; i < 5; i++) {
      const res = await t.api.post('/resetpasswords', { email: b.agent.email, token: wrong, newPassword: 'New-Passw0rd' });
      expect(res.body.error).toBe('ERR_INVALID_RESET_CODE');
    }
    const right = await t.api.post('/resetpasswords', { email: b.agent.email, token: code, newPassword: 'New-Passw0rd' });
    expect(right).toMatchObject({ status: 400, body: { error: 'ERR_INVALID_RESET_CODE' } });
  });

  it("enforces spec 02's password rule and the code's shape, keeping the code", async () => {
    const b = await createTenant(t, 'Rule');
    const code = await requestCode(b.agent.email);
    for (const newPassword of ['Short1', 'alllowercase1', 'ALLUPPERCASE1', 'NoDigitsHere']) {
      const res = await t.api.post('/resetpasswords', { email: b.agent.email, token: code, newPassword });
      expect(res).toMatchObject({ status: 400, body: { error: 'ERR_VALIDATION' } });
      expect(res.body.fields.map((f: any) => f.path)).toEqual(['newPassword']);
    }
    // One of the most used passwords passes the rule but not the list, and costs no attempt of the code.
    expect(await t.api.post('/resetpasswords', { email: b.agent.email, token: code, newPassword: 'Password1' })).toMatchObject({
      status: 400,
      body: { error: 'ERR_PASSWORD_TOO_COMMON' },
    });
    const badCode = await t.api.post('/resetpasswords', { email: b.agent.email, token: 'abc', newPassword: 'New-Passw0rd' });
    expect(badCode.body.fields.map((f: any) => f.path)).toEqual(['token']);
    expect((await t.api.post('/resetpasswords', { email: b.agent.email, token: code, newPassword: 'New-Passw0rd' })).status).toBe(200);
  });

  it("keeps the contract's POST /resetpasswords/{email}/{token}/{newPassword}", async () => {
    const b = await createTenant(t, 'Compat');
    const code = await requestCode(b.agent.email);
    const res = await t.api.post(`/resetpasswords/${encodeURIComponent(b.agent.email)}/${code}/${encodeURIComponent('Url-Passw0rd')}`);
    expect(res).toMatchObject({ status: 200, body: { message: 'Password updated' } });
    expect((await t.api.post('/auth/login', { email: b.agent.email, password: 'Url-Passw0rd' })).status).toBe(200);
  });

  it('never writes a code or a password to the logs', async () => {
    // Resets of its own, both ways, so that what it reads was logged whatever ran before it.
    const b = await createTenant(t, 'Logs');
    const bodyCode = await requestCode(b.agent.email);
    expect((await t.api.post('/resetpasswords', { email: b.agent.email, token: bodyCode, newPassword: 'Body-Passw0rd-9' })).status).toBe(200);
    const urlCode = await requestCode(b.admin.email);
    const res = await t.api.post(`/resetpasswords/${encodeURIComponent(b.admin.email)}/${urlCode}/${encodeURIComponent('Path-Passw0rd-9')}`);
    expect(res.status).toBe(200);
    // The line is written once the SMTP server has acknowledged the mail, just after the mail arrives.
    const sent = (userId: number) => logs.lines.some((l) => l.includes('password reset code sent') && l.includes(`"userId":${userId}`));
    await eventually(() => sent(b.agent.id) && sent(b.admin.id));
    const all = logs.lines.join('\n');
    for (const secret of ['Body-Passw0rd-9', 'Path-Passw0rd-9', 'New-Passw0rd', 'Admin-Passw0rd-2', 'Url-Passw0rd', 'Mail-Secret-1']) expect(all).not.toContain(secret);
    expect(all).not.toMatch(/resetpasswords\/[^[]/);
  });
});

describe('rate limits', () => {
  /** A request for a code from the client address `ip`, as the trusted proxy reports it. */
  const forgetFrom = (ip: string, email: string) =>
    t.api.request('POST', `/forgetpassword/${encodeURIComponent(email)}`, { headers: { 'x-forwarded-for': ip } });

  it('answers 429 past RESET_MAX_PER_EMAIL requests for one address, known or not', async () => {
    const b = await createTenant(t, 'Limited');
    for (const email of [`limited-${b.companyId}@example.com`, b.admin.email]) {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) statuses.push((await forgetFrom('203.0.113.10', email)).status);
      expect(statuses).toEqual([200, 200, 200, 200, 429]);
    }
  });

  it('answers 429 past RESET_MAX_PER_IP requests from one address, whatever the e-mails', async () => {
    const statuses: number[] = [];
    let last: Awaited<ReturnType<typeof forgetFrom>> | undefined;
    for (let i = 0; i < 41; i++) {
      last = await forgetFrom('203.0.113.20', `ip-${i}@example.com`);
      statuses.push(last.status);
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(40);
    expect(last).toMatchObject({ status: 429, body: { error: 'ERR_TOO_MANY_REQUESTS' } });
    expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another client is still served.
    expect((await forgetFrom('203.0.113.21', 'ip-other@example.com')).status).toBe(200);
  });
});

describe('without SMTP settings', () => {
  it('logs that reset e-mail is off, says so to the screen, and stores no code', async () => {
    const off = capturedLogger();
    const plain = await startTestApp({}, { logger: off.logger });
    try {
      expect(off.lines.join('\n')).toContain('password reset e-mail is off');
      expect(await plain.api.get('/forgetpassword')).toMatchObject({ status: 200, body: { emailEnabled: false } });
      const res = await plain.api.post('/forgetpassword/super@atrium.test');
      expect(res).toMatchObject({ status: 200, body: { emailEnabled: false } });
      expect(await plain.app.orm.em.fork().getConnection().execute('select count(*)::int as n from password_resets')).toEqual([{ n: 0 }]);
    } finally {
      await plain.stop();
    }
  });
});
