import { api } from '../../../api/client';

/** GET /forgetpassword: whether this server sends reset codes by e-mail (SMTP configured). */
export const fetchResetStatus = async (): Promise<{ emailEnabled: boolean }> =>
  (await api.get<{ emailEnabled: boolean }>('/forgetpassword', { skipSessionHandling: true })).data;

/** POST /forgetpassword/{email}: the same answer whether or not the address has an account. */
export const requestResetCode = async (email: string): Promise<{ emailEnabled: boolean }> =>
  (await api.post<{ emailEnabled: boolean }>(`/forgetpassword/${encodeURIComponent(email)}`, undefined, { skipSessionHandling: true })).data;

/** POST /resetpasswords with a JSON body (the contract's path variant would put the password in a URL). */
export const resetPassword = async (input: { email: string; token: string; newPassword: string }): Promise<void> => {
  await api.post('/resetpasswords', input, { skipSessionHandling: true });
};
