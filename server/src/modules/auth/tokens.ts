import { createHash, createSecretKey, randomBytes, randomUUID, timingSafeEqual, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import type { Profile } from '@atrium/shared';

export interface AccessClaims {
  id: number;
  companyId: number;
  profile: Profile;
  super: boolean;
  sid: string;
}

/**
 * The secret as a key object, made once: given a string, jsonwebtoken first tries (and fails) to parse
 * it as a public key on every call, which cost more than the rest of authenticating a request.
 */
const keys = new Map<string, KeyObject>();
const keyOf = (secret: string): KeyObject => {
  let key = keys.get(secret);
  if (!key) keys.set(secret, (key = createSecretKey(Buffer.from(secret, 'utf8'))));
  return key;
};

export const signAccessToken = (claims: AccessClaims, secret: string, ttlSeconds: number): string =>
  jwt.sign(claims, keyOf(secret), { algorithm: 'HS256', expiresIn: ttlSeconds });

/** Returns the claims, or null for a token that is malformed, forged or expired. */
export const verifyAccessToken = (token: string, secret: string): AccessClaims | null => {
  try {
    const decoded = jwt.verify(token, keyOf(secret), { algorithms: ['HS256'] });
    if (typeof decoded !== 'object' || decoded === null) return null;
    const { id, companyId, profile, sid } = decoded as Partial<AccessClaims>;
    if (typeof id !== 'number' || typeof companyId !== 'number' || typeof sid !== 'string') return null;
    return { id, companyId, profile: profile === 'admin' ? 'admin' : 'user', super: decoded.super === true, sid };
  } catch {
    return null;
  }
};

/** A refresh token is `{sessionId}.{secret}`; the database keeps only a keyed hash of the secret. */
export const newRefreshSecret = (): string => randomBytes(32).toString('base64url');
export const newSessionId = (): string => randomUUID();

export const hashRefreshSecret = (secret: string, key: string): string =>
  createHash('sha256').update(key).update('\0').update(secret).digest('hex');

export const sameHash = (a: string, b: string): boolean =>
  a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

export const parseRefreshToken = (token: string): { sessionId: string; secret: string } | null => {
  const match = /^([0-9a-f-]{36})\.([A-Za-z0-9_-]{20,100})$/.exec(token);
  return match ? { sessionId: match[1], secret: match[2] } : null;
};
