import { createHmac, randomInt } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { RESET_CODE_LENGTH, RESET_CODE_TTL_SECONDS, type ResetPasswordInput } from '@atrium/shared';
import type { Config } from '../../config.js';
import { AppError } from '../../errors.js';
import type { EventBus } from '../../events/bus.js';
import type { Logger } from '../../logger.js';
import type { Mailer } from '../../mail/mailer.js';
import { User } from '../users/user.entity.js';
import { revokeSessions } from './auth.service.js';
import { assertPasswordAllowed, hashPassword } from './passwords.js';
import { PasswordReset } from './password-reset.entity.js';
import { clearRateLimit, hitRateLimit } from './rate-limit.js';
import { sameHash } from './tokens.js';

/** Dependencies of the reset service; `em` is the system manager (nobody is logged in). */
export interface PasswordResetDeps {
  em: EntityManager;
  config: Config;
  events: EventBus;
  mailer: Mailer;
  logger: Logger;
}

/** Wrong codes a pending reset survives; then it is gone and a new code must be asked for. */
export const RESET_CODE_MAX_ATTEMPTS = 5;
const WINDOW_SECONDS = 15 * 60;

const hashCode = (config: Config, userId: number, code: string) =>
  createHmac('sha256', config.jwtRefreshSecret).update(`password-reset:${userId}:${code}`).digest('hex');

const newCode = () => String(randomInt(0, 10 ** RESET_CODE_LENGTH)).padStart(RESET_CODE_LENGTH, '0');

const mailOf = (user: User, code: string) => ({
  to: user.email,
  subject: `Atrium: código para redefinir a senha / password reset code: ${code}`,
  text: [
    `Olá ${user.name},`,
    '',
    `Seu código de verificação é ${code}. Ele vale por 15 minutos e só pode ser usado uma vez.`,
    'Se você não pediu para redefinir a senha, ignore este e-mail.',
    '',
    `Your verification code is ${code}. It is valid for 15 minutes and can be used once.`,
    'If you did not ask to reset your password, ignore this e-mail.',
  ].join('\n'),
});

/**
 * POST /forgetpassword/{email}: the same answer whether or not the address is known (spec 04 section 13
 * note). A known one gets a new 6-digit code, replacing any earlier one; only its hash is kept. The mail
 * leaves after the answer, outside any transaction; a failure is logged without the code.
 */
export const requestPasswordReset = async (deps: PasswordResetDeps, email: string, ip: string): Promise<{ emailEnabled: boolean }> => {
  const { em, config, mailer } = deps;
  await hitRateLimit(em, `reset:ip:${ip}`, config.resetMaxPerIp, WINDOW_SECONDS);
  await hitRateLimit(em, `reset:email:${email}`, config.resetMaxPerEmail, WINDOW_SECONDS);
  if (!mailer.enabled) return { emailEnabled: false };

  const user = await em.findOne(User, { email });
  if (!user) return { emailEnabled: true };
  const code = newCode();
  await em.upsert(PasswordReset, {
    userId: user.id,
    companyId: user.companyId,
    codeHash: hashCode(config, user.id, code),
    expiresAt: new Date(Date.now() + RESET_CODE_TTL_SECONDS * 1000),
    attempts: 0,
    createdAt: new Date(),
  });
  void mailer.send(mailOf(user, code)).then(
    () => deps.logger.info({ userId: user.id }, 'password reset code sent'),
    (err: Error) => deps.logger.error({ userId: user.id, err: { message: err.message, code: (err as { code?: string }).code } }, 'password reset e-mail failed'),
  );
  return { emailEnabled: true };
};

/**
 * The reset step: the code must be the latest one for that address, unexpired, unused and guessed within
 * RESET_CODE_MAX_ATTEMPTS tries. It is consumed with the password change, and every session (with its
 * refresh token) of the user ends.
 */
export const resetPassword = async (deps: PasswordResetDeps, input: ResetPasswordInput, ip: string): Promise<void> => {
  const { em, config } = deps;
  await hitRateLimit(em, `reset-try:ip:${ip}`, config.resetMaxPerIp, WINDOW_SECONDS);
  await hitRateLimit(em, `reset-try:email:${input.email}`, config.resetMaxPerEmail * 2, WINDOW_SECONDS);
  // Before the code is tried: a refused password costs no attempt, and the form can ask for another.
  assertPasswordAllowed(input.newPassword);

  const user = await em.findOne(User, { email: input.email });
  const pending = user ? await em.findOne(PasswordReset, { userId: user.id }) : null;
  if (!user || !pending || pending.expiresAt.getTime() <= Date.now() || pending.attempts >= RESET_CODE_MAX_ATTEMPTS) {
    throw new AppError('ERR_INVALID_RESET_CODE');
  }
  const given = hashCode(config, user.id, input.token);
  if (!sameHash(pending.codeHash, given)) {
    // Counted in one statement, so parallel guesses cannot share an attempt.
    await em.execute('update password_resets set attempts = attempts + 1 where user_id = ?', [user.id]);
    throw new AppError('ERR_INVALID_RESET_CODE');
  }
  const passwordHash = await hashPassword(input.newPassword);
  await em.transactional(async (tx) => {
    // Consumed exactly once: a parallel use of the same code finds nothing to delete.
    const consumed = await tx.nativeDelete(PasswordReset, { userId: user.id, codeHash: given });
    if (consumed === 0) throw new AppError('ERR_INVALID_RESET_CODE');
    await tx.nativeUpdate(User, { id: user.id }, { passwordHash });
    await revokeSessions(tx, user.id);
  });
  await clearRateLimit(em, `reset-try:email:${input.email}`);
  await clearRateLimit(em, `login:email:${input.email}`);
  deps.events.emit('auth.password-reset', { companyId: user.companyId, userId: user.id });
};
