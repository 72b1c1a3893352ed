import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * Third-party secrets at rest (a company's AI key, Dialogflow credentials, webhook secrets): AES-256-GCM
 * under the server's integrations key (INTEGRATIONS_SECRET_KEY, or one kept in DATA_DIR like the JWT
 * secrets). Each value has its own random 12-byte IV, and is bound to where it belongs (`context`: the
 * column and the company) by the authenticated data, so a value copied to another row or company does not
 * open. Stored as `v1.<iv>.<tag>.<ciphertext>` (base64url). Never logged, never answered by the API.
 */
export interface Sealer {
  seal(plain: string, context: string): string;
  open(sealed: string, context: string): string;
}

const VERSION = 'v1';

export const createSealer = (secret: string): Sealer => {
  // The configured secret is any string of 32+ characters; the cipher wants exactly 32 bytes.
  const key = createHash('sha256').update(`atrium-integrations:${secret}`).digest();
  return {
    seal(plain, context) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(context));
      const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return [VERSION, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), data.toString('base64url')].join('.');
    },
    open(sealed, context) {
      const [version, iv, tag, data] = sealed.split('.');
      if (version !== VERSION || !iv || !tag || data === undefined) throw new Error('not a sealed secret');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(context));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
    },
  };
};

/** What reads may show of a secret: its last 4 characters (nothing of a short one). */
export const lastFour = (secret: string): string => (secret.length >= 12 ? secret.slice(-4) : '');
