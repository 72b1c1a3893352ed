import { hash, verify } from '@node-rs/argon2';
import dumbPasswords from 'dumb-passwords';
import { AppError } from '../../errors.js';

export const hashPassword = (password: string): Promise<string> => hash(password);

/**
 * A password someone sets through the API (signup, a user created or edited, the profile, a reset) must not
 * be one of the 10,000 most used ones (the list ships inside the `dumb-passwords` package, compared
 * lower-cased): the shared schema's rule (8+ characters, a digit, a lower- and an upper-case letter) lets
 * "Password1" through, and such a password falls to the first guesses an attacker tries.
 */
export const assertPasswordAllowed = (password: string): void => {
  if (dumbPasswords.check(password)) throw new AppError('ERR_PASSWORD_TOO_COMMON');
};

/** A new password, checked and hashed. */
export const hashNewPassword = async (password: string): Promise<string> => {
  assertPasswordAllowed(password);
  return hashPassword(password);
};

// Verifying against a real hash when the email is unknown keeps both answers equally slow.
let dummyHash: Promise<string> | undefined;

export const verifyPassword = async (passwordHash: string | undefined, password: string): Promise<boolean> => {
  if (!passwordHash) {
    dummyHash ??= hash('not-a-real-password');
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  return verify(passwordHash, password).catch(() => false);
};
