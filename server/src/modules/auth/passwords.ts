import { hash, verify } from '@node-rs/argon2';

export const hashPassword = (password: string): Promise<string> => hash(password);

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
