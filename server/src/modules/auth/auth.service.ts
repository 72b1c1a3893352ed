import type { EntityManager } from '@mikro-orm/postgresql';
import type { LoginInput, OwnSessionsView } from '@atrium/shared';
import type { Config } from '../../config.js';
import type { Actor } from '../../context.js';
import { AppError } from '../../errors.js';
import type { EventBus } from '../../events/bus.js';
import { forCompany } from '../../db/tenant.js';
import { Company } from '../companies/company.entity.js';
import { Setting } from '../settings/setting.entity.js';
import { getSettingValue, visibleSettings } from '../settings/index.js';
import { User } from '../users/user.entity.js';
import { presentCompanySummary, presentUser, queuesOfUser } from '../users/index.js';
import { verifyPassword } from './passwords.js';
import { clearRateLimit, hitRateLimit } from './rate-limit.js';
import { Session } from './session.entity.js';
import { assertCompanyUsable, liveSessions } from './sessions.js';
import {
  hashRefreshSecret,
  newRefreshSecret,
  newSessionId,
  parseRefreshToken,
  sameHash,
  signAccessToken,
  verifyAccessToken,
} from './tokens.js';

/** Dependencies of the auth service; `em` is the system (cross-company) manager: no tenant is known yet. */
export interface AuthDeps {
  em: EntityManager;
  config: Config;
  events: EventBus;
}

export interface ClientInfo {
  ip: string;
  userAgent?: string;
}

const issueTokens = (config: Config, user: User, sessionId: string, secret: string) => ({
  token: signAccessToken(
    { id: user.id, companyId: user.companyId, profile: user.profile, super: user.super, sid: sessionId },
    config.jwtSecret,
    config.accessTokenTtl,
  ),
  refreshToken: `${sessionId}.${secret}`,
});

/** The user of a login or refresh answer: with the company, its due date and its (visible) settings. */
export const loadSessionUser = async (em: EntityManager, user: User) => {
  const company = await em.findOneOrFail(Company, user.companyId);
  const settings = await em.find(Setting, { companyId: user.companyId }, { orderBy: { key: 'asc' } });
  const actor = { profile: user.profile, isSuper: user.super };
  return presentUser(user, {
    company: presentCompanySummary(company, visibleSettings(settings, actor)),
    queues: await queuesOfUser(em, user.id),
  });
};

export const login = async (deps: AuthDeps, input: LoginInput, client: ClientInfo) => {
  const { em, config, events } = deps;
  await hitRateLimit(em, `login:ip:${client.ip}`, config.loginMaxPerIp, 15 * 60);
  await hitRateLimit(em, `login:email:${input.email}`, config.loginMaxPerEmail, 15 * 60);

  const user = await em.findOne(User, { email: input.email });
  const valid = await verifyPassword(user?.passwordHash, input.password);
  // One answer for an unknown email and a wrong password, so emails cannot be probed.
  if (!user || !valid) throw new AppError('ERR_INVALID_CREDENTIALS');

  const company = await em.findOneOrFail(Company, user.companyId);
  assertCompanyUsable(company, user);
  await clearRateLimit(em, `login:email:${input.email}`);

  // One session per user: a new login ends the others (spec 03 section 11), unless the company allows a few
  // (sessionsPerUser): then only the least recently used over the limit end.
  const allowed = Number(await getSettingValue(forCompany(em, user.companyId), 'sessionsPerUser')) || 1;
  const othersEnded = allowed <= 1;
  if (othersEnded) {
    await em.nativeUpdate(Session, { userId: user.id, revokedAt: null }, { revokedAt: new Date() });
  } else {
    const live = await em.find(
      Session,
      { userId: user.id, revokedAt: null, expiresAt: { $gt: new Date() } },
      { orderBy: { lastUsedAt: 'desc', createdAt: 'desc' }, fields: ['id'] },
    );
    const over = live.slice(allowed - 1).map((s) => s.id);
    if (over.length > 0) await em.nativeUpdate(Session, { id: { $in: over } }, { revokedAt: new Date() });
  }
  const sessionId = newSessionId();
  const secret = newRefreshSecret();
  em.create(Session, {
    id: sessionId,
    userId: user.id,
    companyId: user.companyId,
    refreshHash: hashRefreshSecret(secret, config.jwtRefreshSecret),
    expiresAt: new Date(Date.now() + config.refreshTokenTtl * 1000),
    userAgent: client.userAgent?.slice(0, 300) ?? null,
    ip: client.ip.slice(0, 64),
  });
  user.online = true;
  user.lastSeenAt = new Date();
  await em.flush();

  events.emit('auth.login', { companyId: user.companyId, userId: user.id, email: user.email, othersEnded });
  return { ...issueTokens(config, user, sessionId, secret), user: await loadSessionUser(em, user) };
};

/** Rotates the refresh token. A token already rotated away is a stolen copy: the session ends. */
export const refresh = async (deps: AuthDeps, refreshToken: string | undefined) => {
  const { em, config } = deps;
  const parsed = refreshToken ? parseRefreshToken(refreshToken) : null;
  if (!parsed) throw new AppError('ERR_INVALID_REFRESH_TOKEN');
  const session = await em.findOne(Session, parsed.sessionId);
  if (!session || session.revokedAt || session.expiresAt.getTime() <= Date.now()) {
    throw new AppError('ERR_INVALID_REFRESH_TOKEN');
  }
  if (!sameHash(session.refreshHash, hashRefreshSecret(parsed.secret, config.jwtRefreshSecret))) {
    session.revokedAt = new Date();
    await em.flush();
    throw new AppError('ERR_INVALID_REFRESH_TOKEN');
  }
  const user = await em.findOneOrFail(User, session.userId);
  const company = await em.findOneOrFail(Company, user.companyId);
  assertCompanyUsable(company, user);

  const secret = newRefreshSecret();
  session.refreshHash = hashRefreshSecret(secret, config.jwtRefreshSecret);
  session.lastUsedAt = new Date();
  session.expiresAt = new Date(Date.now() + config.refreshTokenTtl * 1000);
  await em.flush();
  return { ...issueTokens(config, user, session.id, secret), user: await loadSessionUser(em, user) };
};

export const logout = async (deps: Pick<AuthDeps, 'em' | 'events'>, actor: Actor) => {
  await deps.em.nativeUpdate(Session, { id: actor.sessionId, revokedAt: null }, { revokedAt: new Date() });
  await forCompany(deps.em, actor.companyId).nativeUpdate(User, { id: actor.userId }, { online: false });
  deps.events.emit('auth.logout', { companyId: actor.companyId, userId: actor.userId, sessionId: actor.sessionId });
};

/** GET /auth/sessions: the user's live sessions, most recently used first, and how many the company allows. */
export const listOwnSessions = async (em: EntityManager, actor: Actor): Promise<OwnSessionsView> => {
  const sessions = await em.find(
    Session,
    { userId: actor.userId, revokedAt: null, expiresAt: { $gt: new Date() } },
    { orderBy: { lastUsedAt: 'desc', createdAt: 'desc' } },
  );
  const allowed = Number(await getSettingValue(forCompany(em, actor.companyId), 'sessionsPerUser')) || 1;
  return {
    allowed,
    sessions: sessions.map((s) => ({
      id: s.id,
      userAgent: s.userAgent,
      ip: s.ip,
      createdAt: s.createdAt.toISOString(),
      lastUsedAt: s.lastUsedAt.toISOString(),
      current: s.id === actor.sessionId,
    })),
  };
};

/**
 * DELETE /auth/sessions/{id}: ends one of the user's own live sessions (a lost phone, a shared computer);
 * its tokens stop working and its sockets close at once. Another user's session is not found.
 */
export const endOwnSession = async (deps: Pick<AuthDeps, 'em' | 'events'>, actor: Actor, sessionId: string): Promise<void> => {
  const ended = await deps.em.nativeUpdate(Session, { id: sessionId, userId: actor.userId, revokedAt: null }, { revokedAt: new Date() });
  if (ended === 0) throw new AppError('ERR_NOT_FOUND');
  deps.events.emit('auth.logout', { companyId: actor.companyId, userId: actor.userId, sessionId });
};

/** Revokes every session of a user but `keep` (password change, deletion). */
export const revokeSessions = async (em: EntityManager, userId: number, keep?: string) => {
  await em.nativeUpdate(
    Session,
    { userId, revokedAt: null, ...(keep ? { id: { $ne: keep } } : {}) },
    { revokedAt: new Date() },
  );
};

/**
 * Turns a bearer token into the acting user: a valid signature, a live session, an existing user and a
 * usable company, read in one query. Profile and super come from the database, so changes apply at once.
 */
export const authenticate = async (em: EntityManager, config: Config, token: string | undefined): Promise<Actor> => {
  if (!token) throw new AppError('ERR_SESSION_EXPIRED');
  const claims = verifyAccessToken(token, config.jwtSecret);
  if (!claims) throw new AppError('ERR_INVALID_TOKEN');
  const session = (await liveSessions(em, [claims.sid])).get(claims.sid);
  if (session instanceof AppError) throw session;
  if (!session || session.userId !== claims.id) throw new AppError('ERR_SESSION_EXPIRED');
  return session;
};
